import assert from 'node:assert/strict';
import type { EventEmitter } from 'node:events';
import { test } from 'node:test';
import { chromium } from '@playwright/test';
import { startSandbox } from '../sandbox/mod.ts';
import { chromiumLaunchOptions } from './browser.ts';
import { TokensPage } from './tokens_page.ts';

// A portal's account menu often opens the token pages in a tab of their own. Here "Tokens and sessions" opens its page
// by a script's window.open, and the TOKENS link by target=_blank; without being followed, step 3 waits for a TOKENS
// control on a page that has none, until the test's deadline.
test(
  'steps 2 and 3 that open their page in a new tab or window are followed in the same page, which then creates a token',
  { timeout: 60_000 },
  async (t) => {
    const sandbox = await startSandbox({ testMode: true });
    t.after(() => sandbox.close());
    const browser = await chromium.launch(chromiumLaunchOptions());
    t.after(() => browser.close());
    const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
    await context.addInitScript(() => {
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
    const { SLICER_AUTH_URL: authUrl, SLICER_USERNAME: username, SLICER_PASSWORD: password, SLICER_SERVICE_ID: serviceId } = sandbox.env;
    const page = await context.newPage();
    let opened = 0;
    page.on('popup', () => opened++);
    const tokens = new TokensPage(page, authUrl, { username, password });

    await tokens.open();
    assert.equal(opened, 2, 'each step opened its page in a new one');
    assert.equal(new URL(page.url()).pathname, '/security/tokens', 'the first page went on to the TOKENS page');
    assert.equal(context.pages().length, 1, 'the pages opened were closed');
    assert.equal((page as unknown as EventEmitter).listenerCount('popup'), 1, "only the test's own listener is left on the page");
    const value = await tokens.create('opened in place', [serviceId]);
    assert.equal((sandbox.store.check(value) as { kind?: string }).kind, 'permanent', 'steps 4–8 created a live token');
  },
);
