import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type Browser, type BrowserContext, chromium, type Page } from '@playwright/test';
import { startSandbox } from '../sandbox/mod.ts';
import { chromiumLaunchOptions } from './browser.ts';
import { TokensPage } from './tokens_page.ts';

const sandbox = await startSandbox({ testMode: true });
const { SLICER_AUTH_URL: authUrl, SLICER_USERNAME: username, SLICER_PASSWORD: password, SLICER_SERVICE_ID: serviceId } = sandbox.env;
let browser: Browser;
let context: BrowserContext;

before(async () => {
  browser = await chromium.launch(chromiumLaunchOptions());
  context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
});
after(async () => {
  await browser.close();
  await sandbox.close();
});

/**
 * Holds back the TOKENS page's script, when armed, until a control on that
 * page has been clicked: a page whose deferred script arrives late (or that
 * is not yet hydrated) shows its controls before their handlers exist.
 *
 * @param page the page
 * @returns `arm()` for the next TOKENS page, and how many clicks landed while a script was held
 */
async function lateScripts(page: Page): Promise<{ arm(): void; early(): number }> {
  let early = 0;
  let release: (() => void) | undefined;
  await page.exposeBinding('slicerTestClicked', () => {
    if (!release) return;
    early++;
    release();
    release = undefined;
  });
  // Reports every click made before the page's own script ran; the node side counts those made while it was held.
  // No named functions inside the callback: a TypeScript loader may wrap them in helpers the page does not have.
  await page.addInitScript(() =>
    document.addEventListener('click', () => {
      if (!document.documentElement.hasAttribute('data-ui-ran')) (window as unknown as { slicerTestClicked(): void }).slicerTestClicked();
    }, true)
  );
  let armed = false;
  await page.route('**/static/ui.js', async (route) => {
    if (armed && new URL(route.request().frame().url()).pathname === '/security/tokens') {
      armed = false;
      await new Promise<void>((resolve) => (release = resolve));
    }
    const response = await route.fetch();
    await route.fulfill({
      response,
      body: `${await response.text()}
document.documentElement.setAttribute('data-ui-ran', '');`,
    });
  });
  return { arm: () => (armed = true), early: () => early };
}

// The deadline ends a run whose script is held and never released (no click came), instead of waiting forever.
test(
  'controls clicked before the page script has run are clicked again: a token is created and revoked',
  { timeout: 180_000 },
  async () => {
    const page = await context.newPage();
    const late = await lateScripts(page);
    const tokens = new TokensPage(page, authUrl, { username, password });
    late.arm();
    await tokens.open();
    const value = await tokens.create('late script', [serviceId]);
    assert.equal(late.early(), 1, '"New permanent token" was first clicked while the script was held');
    assert.equal((sandbox.store.check(value) as { kind?: string }).kind, 'permanent', 'the value read is a live permanent token');

    late.arm();
    await tokens.open();
    await tokens.revoke('late script');
    assert.equal(late.early(), 2, '"Revoke" was first clicked while the script was held');
    assert.equal(sandbox.store.check(value), 'revoked');
  },
);
