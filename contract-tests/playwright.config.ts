/**
 * The contract suite. The target is explicit: SLICER_CONTRACT_TARGET=sandbox
 * (the default; the global setup starts the embedded sandbox in test mode) or
 * live (the configured service). `slicer-auth contract --target …` sets it.
 *
 * Projects: `api` (no browser), `setup` (browser login once), `ui` (Chromium,
 * 5.3), then `clock` and `clock-ui` (tests that move the sandbox clock, run
 * last and alone).
 *
 * What a run leaves holds no secret and is private (SECURITY.md): every file
 * the runner and its workers write is created readable by its owner only
 * (umask 077, the reports folder 0700), and Playwright's accessibility
 * snapshot of the page at a failure (`error-context.md`, with every visible
 * text, a new token included) is not taken; the fixtures take a screenshot
 * with every known secret masked instead, and none while a new token is on
 * screen unread.
 */
import { chmodSync, existsSync } from 'node:fs';
import process from 'node:process';
import { join, resolve } from 'node:path';
import { defineConfig } from '@playwright/test';
import { REPORTS } from './paths.ts';
import type { SuiteOptions } from './saved_login.ts';
import { chromiumLaunchOptions } from '../src/auth_ui/browser.ts';
import { readToolSettings } from '../src/settings/tool_settings.ts';
import { liveAuthUrl, targetKind } from './target.ts';

// This module is loaded by the runner and by every worker: both get the settings below.
process.umask(0o077);
process.env.PLAYWRIGHT_NO_COPY_PROMPT = '1'; // no page snapshot in error-context.md
if (existsSync(resolve(REPORTS))) chmodSync(resolve(REPORTS), 0o700);

const live = targetKind() === 'live';
const listing = process.argv.includes('--list');
/** `.ts` in a clone, `.js` in the built package (`dist/contract-tests/`): the files beside this config. */
const ext = import.meta.url.endsWith('.js') ? 'js' : 'ts';
const browser = {
  browserName: 'chromium' as const,
  // A plain-http live service gets the clipboard, which Chromium keeps from insecure origins ("Copy token value").
  launchOptions: chromiumLaunchOptions(process.env, liveAuthUrl()),
  permissions: ['clipboard-read', 'clipboard-write'],
};

export default defineConfig<SuiteOptions>({
  testDir: '.',
  globalSetup: `./global_setup.${ext}`,
  outputDir: join(resolve(REPORTS), 'artifacts'),
  fullyParallel: true,
  workers: 2,
  forbidOnly: Boolean(process.env.CI),
  // One retry on live targets only: a sandbox failure is never flaky network.
  retries: live ? 1 : 0,
  timeout: 30_000,
  expect: { timeout: 5_000 },
  // Listing the tests (--list) runs none: it writes no report, and the last run's are kept.
  reporter: listing ? [['list']] : [
    ['list'],
    ['html', { outputFolder: join(resolve(REPORTS), 'html'), open: 'never' }],
    ['junit', { outputFile: join(resolve(REPORTS), 'junit.xml') }],
    [`./compliance_reporter.${ext}`],
    // Shards (--shard=i/n) each leave a blob; `slicer-auth contract --merge` makes one report and one compliance summary.
    ['blob', { outputDir: join(resolve(REPORTS), 'blob') }],
  ],
  use: {
    // Traces record request headers, form bodies and typed values: the password and tokens.
    // Off unless asked for (SLICER_CONTRACT_TRACE=retain-on-failure) on a disposable account.
    trace: readToolSettings().contractTrace,
    // The fixtures take failure screenshots themselves, with secrets masked.
    screenshot: 'off',
    video: 'off',
  },
  projects: [
    { name: 'api', testMatch: `api/*.spec.${ext}` },
    { name: 'setup', testMatch: `setup/*.setup.${ext}`, use: { ...browser, trace: 'off' } },
    // A UI test creates and revokes tokens page by page: a staging UI, or a loaded CI machine, takes a while.
    {
      name: 'ui',
      testMatch: `ui/*.spec.${ext}`,
      dependencies: ['setup'],
      timeout: 90_000,
      use: { ...browser, savedLogin: true },
    },
    // Tests that move the sandbox clock run last, one project after the other, so they expire no other test's token.
    { name: 'clock', testMatch: `clock/validity.spec.${ext}`, dependencies: ['api', 'ui'] },
    {
      name: 'clock-ui',
      testMatch: `clock/permanent_validity.spec.${ext}`,
      dependencies: ['clock'],
      use: { ...browser, savedLogin: true },
    },
  ],
});
