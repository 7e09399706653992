import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chromium } from '@playwright/test';
import { startSandbox } from '../sandbox/mod.ts';
import { chromiumLaunchOptions } from './browser.ts';
import { TokensPage } from './tokens_page.ts';

// A consent overlay over the whole page until answered, as many portals show: without an answer, every click waits
// for the control it covers, until the test's deadline.
test(
  'a cookie banner covering the pages is answered with its Reject all, and the steps go on: a token is created and revoked',
  { timeout: 90_000 },
  async (t) => {
    const sandbox = await startSandbox({ testMode: true });
    t.after(() => sandbox.close());
    const browser = await chromium.launch(chromiumLaunchOptions());
    t.after(() => browser.close());
    const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
    await context.addInitScript(() => {
      document.addEventListener('DOMContentLoaded', () => {
        if (localStorage.getItem('consent')) return;
        const overlay = document.createElement('div');
        overlay.style.cssText = 'position:fixed;inset:0;z-index:9999;background:rgba(0,0,0,.5)';
        overlay.innerHTML = '<div role="dialog" aria-label="Privacy" style="background:#fff;margin:20vh auto;width:20em">' +
          '<p>We use <b>cookies</b> to improve your experience.</p><button>OK</button><button>Accept all</button>' +
          '<button>Reject all</button></div>';
        for (const button of overlay.querySelectorAll('button')) {
          button.addEventListener('click', () => {
            localStorage.setItem('consent', button.textContent ?? '');
            overlay.remove();
          });
        }
        document.body.append(overlay);
      });
    });
    const { SLICER_AUTH_URL: authUrl, SLICER_USERNAME: username, SLICER_PASSWORD: password, SLICER_SERVICE_ID: serviceId } = sandbox.env;
    const page = await context.newPage();
    const tokens = new TokensPage(page, authUrl, { username, password });

    await tokens.open();
    assert.equal(await page.evaluate(() => localStorage.getItem('consent')), 'Reject all', 'the banner was refused, never OK');
    const value = await tokens.create('past the banner', [serviceId]);
    assert.equal((sandbox.store.check(value) as { kind?: string }).kind, 'permanent', 'steps 4–8 created a live token');
    await tokens.revoke('past the banner');
    assert.equal(sandbox.store.check(value), 'revoked');
  },
);
