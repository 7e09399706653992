/**
 * A sandbox and a browser page on its UI, for a test of the page objects against a UI that a script changes: the
 * script runs in every page before the page's own, the context may use the clipboard, and both close when the test
 * ends, whether it passes or not.
 */
import type { TestContext } from 'node:test';
import { type BrowserContext, chromium, type Page } from '@playwright/test';
import { chromiumLaunchOptions } from '../auth_ui/browser.ts';
import { TokensPage } from '../auth_ui/tokens_page.ts';
import { type Sandbox, startSandbox } from '../sandbox/mod.ts';

/** What {@link sandboxUi} opens. */
export interface SandboxUi {
  readonly sandbox: Sandbox;
  readonly context: BrowserContext;
  readonly page: Page;
  /** The page objects on `page`, logging in as the sandbox's user. */
  readonly tokens: TokensPage;
  /** The sandbox's slicing service id, a scope for a token. */
  readonly serviceId: string;
}

/**
 * Starts a sandbox (test mode) and a headless Chromium, and opens a page whose every document first runs `script`.
 *
 * @param t the test, which closes both when it ends
 * @param script what changes the UI, run in the page before its own scripts: a function, or its source as text
 * @returns the sandbox, the context, the page and its page objects
 */
export async function sandboxUi(t: TestContext, script: (() => void) | string): Promise<SandboxUi> {
  const sandbox = await startSandbox({ testMode: true });
  t.after(() => sandbox.close());
  const browser = await chromium.launch(chromiumLaunchOptions());
  t.after(() => browser.close());
  const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
  await context.addInitScript(script);
  const page = await context.newPage();
  const { SLICER_AUTH_URL: authUrl, SLICER_USERNAME: username, SLICER_PASSWORD: password, SLICER_SERVICE_ID: serviceId } = sandbox.env;
  return { sandbox, context, page, tokens: new TokensPage(page, authUrl, { username, password }), serviceId };
}
