import assert from 'node:assert/strict';
import { after, before, beforeEach, test } from 'node:test';
import { type Browser, type BrowserContext, chromium } from '@playwright/test';
import { startSandbox } from '../sandbox/mod.ts';
import { lateScript } from '../testing/late_script.ts';
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
beforeEach(() => sandbox.store.reset());
after(async () => {
  await browser.close();
  await sandbox.close();
});

// The deadline ends a run whose script is held and never released (no click came), instead of waiting forever.
test(
  'controls clicked before the page script has run are clicked again: a token is created and revoked',
  { timeout: 180_000 },
  async () => {
    const page = await context.newPage();
    const late = await lateScript(page);
    const tokens = new TokensPage(page, authUrl, { username, password });
    late.arm('/security/tokens');
    await tokens.open();
    const value = await tokens.create('late script', [serviceId]);
    assert.equal(late.early(), 1, '"New permanent token" was first clicked while the script was held');
    assert.equal((sandbox.store.check(value) as { kind?: string }).kind, 'permanent', 'the value read is a live permanent token');

    late.arm('/security/tokens');
    await tokens.open();
    await tokens.revoke('late script');
    assert.equal(late.early(), 2, '"Revoke" was first clicked while the script was held');
    assert.equal(sandbox.store.check(value), 'revoked');
  },
);
