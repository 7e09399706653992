import assert from 'node:assert/strict';
import { after, before, beforeEach, test } from 'node:test';
import { type Browser, chromium, expect, type Page } from '@playwright/test';
import { startSandbox } from '../sandbox/mod.ts';
import { type LateScript, lateScript } from '../testing/late_script.ts';
import { chromiumLaunchOptions } from './browser.ts';
import { LoginForm } from './login_form.ts';

// Variant 3 logs in through a script: inputs without a form, whose values reach the script only through the input
// events it hears, and a button that does nothing until the script has attached its handler.
const sandbox = await startSandbox({ testMode: true, uiVariant: 3 });
const { SLICER_AUTH_URL: authUrl, SLICER_USERNAME: username, SLICER_PASSWORD: password } = sandbox.env;
let browser: Browser;

before(async () => (browser = await chromium.launch(chromiumLaunchOptions())));
beforeEach(() => sandbox.store.reset());
after(async () => {
  await browser.close();
  await sandbox.close();
});

/**
 * The page as the page object sees it, letting the held script go when the
 * page object waits for the page to load (a held script would keep it from
 * loading): a login form typed into before then loses what was typed.
 */
function releasedByLoadWait(page: Page, late: LateScript, released: () => void): Page {
  return new Proxy(page, {
    get(target, key) {
      if (key === 'waitForLoadState') {
        return (...args: Parameters<Page['waitForLoadState']>) => {
          if (late.release()) released();
          return target.waitForLoadState(...args);
        };
      }
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

// The deadline ends a run whose script is held and never released, instead of waiting forever.
test('a login page reached by a click is typed into only once its script has run', { timeout: 180_000 }, async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const late = await lateScript(page);
  let released = 0;
  const form = new LoginForm(releasedByLoadWait(page, late, () => released++));
  await page.setContent(`<a href="${authUrl}/?next=/">Sign in</a>`);
  late.arm('/');
  await page.getByRole('link', { name: 'Sign in' }).click();
  await expect(form.password).toBeVisible();
  await form.logIn(username, password);
  assert.equal(late.early(), 0, 'nothing was typed or clicked while the script was held');
  assert.equal(released, 1, 'the page object waited for the login page to load');
  await expect(page.getByText(`Signed in as ${username}`)).toBeVisible();
  await context.close();
});

test('a login page with a resource that never loads is logged into once the wait for it ends', { timeout: 180_000 }, async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  // The login page gets an image that never arrives, so the page never finishes loading.
  await page.route(`${authUrl}/`, async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, body: (await response.text()).replace('</main>', '<img src="/never.png" alt=""></main>') });
  });
  await page.route('**/never.png', () => {});
  await page.setContent(`<a href="${authUrl}/">Sign in</a>`);
  await page.getByRole('link', { name: 'Sign in' }).click();
  const form = new LoginForm(page);
  await expect(form.password).toBeVisible();
  await form.logIn(username, password);
  await expect(page.getByText(`Signed in as ${username}`)).toBeVisible();
  await context.close();
});
