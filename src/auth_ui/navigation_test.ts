import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sandboxUi } from '../testing/sandbox_ui.ts';

// A page may have navigation landmarks besides its top navigation panel (a breadcrumb's, a footer's), while its tabs
// are no landmark at all, as Bootstrap writes them (`<ul class="nav nav-tabs">` beside `<nav aria-label="breadcrumb">`).
// Looking for TOKENS only in the page's landmarks waited for it there until the test's deadline.
test('TOKENS in tabs that are no landmark, beside a breadcrumb in a <nav>, is chosen where it is', { timeout: 60_000 }, async (t) => {
  const { page, tokens, sandbox, serviceId } = await sandboxUi(t, () => {
    document.addEventListener('DOMContentLoaded', () => {
      const nav = document.querySelector('nav.top');
      if (!nav) return;
      const tabs = document.createElement('ul');
      tabs.className = 'nav nav-tabs';
      for (const link of [...nav.children]) {
        const item = document.createElement('li');
        item.append(link);
        tabs.append(item);
      }
      const breadcrumb = document.createElement('nav');
      breadcrumb.setAttribute('aria-label', 'breadcrumb');
      breadcrumb.innerHTML = '<ol><li><a href="/">Account</a></li><li>Security</li></ol>';
      nav.replaceWith(breadcrumb, tabs);
    });
  });
  await tokens.open();
  assert.equal(new URL(page.url()).pathname, '/security/tokens', 'step 3 reached the TOKENS page');
  const value = await tokens.create('beside a breadcrumb', [serviceId]);
  assert.equal((sandbox.store.check(value) as { kind?: string }).kind, 'permanent', 'steps 4–8 created a live token');
});
