import assert from 'node:assert/strict';
import type { EventEmitter } from 'node:events';
import { test } from 'node:test';
import { sandboxUi } from '../testing/sandbox_ui.ts';

// A portal's account menu often opens the token pages in a tab of their own. Here "Tokens and sessions" opens its page
// by a script's window.open, and the TOKENS link by target=_blank; without being followed, step 3 waits for a TOKENS
// control on a page that has none, until the test's deadline.
test(
  'steps 2 and 3 that open their page in a new tab or window are followed in the same page, which then creates a token',
  { timeout: 60_000 },
  async (t) => {
    const { sandbox, context, page, tokens, serviceId } = await sandboxUi(t, () => {
      document.addEventListener('submit', (event) => {
        const form = event.target as HTMLFormElement;
        if (form.getAttribute('action') !== '/security') return;
        event.preventDefault();
        globalThis.open('/security/');
      }, true);
      document.addEventListener('DOMContentLoaded', () => {
        for (const link of document.querySelectorAll('a[href="/security/tokens"]')) link.setAttribute('target', '_blank');
      });
    });
    let opened = 0;
    page.on('popup', () => opened++);

    await tokens.open();
    assert.equal(opened, 2, 'each step opened its page in a new one');
    assert.equal(new URL(page.url()).pathname, '/security/tokens', 'the first page went on to the TOKENS page');
    assert.equal(context.pages().length, 1, 'the pages opened were closed');
    assert.equal((page as unknown as EventEmitter).listenerCount('popup'), 1, "only the test's own listener is left on the page");
    const value = await tokens.create('opened in place', [serviceId]);
    assert.equal((sandbox.store.check(value) as { kind?: string }).kind, 'permanent', 'steps 4–8 created a live token');
  },
);

// A script may open a blank window first and give it its address later (once it has fetched it, say): the popup is
// then at about:blank when it opens, and following that address would leave the first page blank.
test('a step whose new window gets its address after it opens is followed to that address', { timeout: 60_000 }, async (t) => {
  const { page, tokens } = await sandboxUi(t, () => {
    document.addEventListener('submit', (event) => {
      const form = event.target as HTMLFormElement;
      if (form.getAttribute('action') !== '/security') return;
      event.preventDefault();
      const opened = globalThis.open('about:blank');
      setTimeout(() => opened && (opened.location.href = '/security/'), 300);
    }, true);
  });

  await tokens.open();
  assert.equal(new URL(page.url()).pathname, '/security/tokens', 'the first page went on to the TOKENS page');
});
