/**
 * Fixtures of the contract suite: the target, the secret-redacting API helper,
 * the sandbox's test controls, the TOKENS page, and a tracker that revokes
 * every permanent token a test created, in teardown, even when the test fails.
 * Specs import everything they need from here.
 */
import { createHash } from 'node:crypto';
import process from 'node:process';
import { test as base } from '@playwright/test';
import { ContractApi } from './contract_api.ts';
import { savedLoginPath } from './paths.ts';
import { SandboxControls } from './sandbox_controls.ts';
import { openLogin, type SuiteOptions } from './saved_login.ts';
import { markSecrets, SECRET_ATTRIBUTE, showsUnmarkedToken } from '../src/auth_ui/controls.ts';
import { runTokenName, testTokenNames } from '../src/auth_ui/run_tokens.ts';
import { TokensPage } from '../src/auth_ui/tokens_page.ts';
import { systemClock } from '../src/clock.ts';
import { readToolSettings } from '../src/settings/tool_settings.ts';
import { describeTarget, loadTarget, type Target } from './target.ts';

export { expect } from '@playwright/test';
export { clause, covers, finding, probe, rowTest, STRICT } from './clauses.ts';
export { type Answer, ContractApi, type Presentation, refused, type Service } from './contract_api.ts';
export { SandboxControls } from './sandbox_controls.ts';
export { accessTokenIn, documentedDrift } from './token_answer.ts';

/** Tracks the permanent tokens a test creates. */
export interface PermanentTokens {
  /** A unique, recognisable token name for this test. */
  name(label: string): string;
}

interface Fixtures {
  targetNote: void;
  api: ContractApi;
  controls: SandboxControls | undefined;
  tokensPage: TokensPage;
  permanentTokens: PermanentTokens;
}

/** @returns the run's id, as the global setup fixed it for every worker */
export const runId = (): string => process.env.SLICER_CONTRACT_RUN_ID ?? 'unnamed';

/** The suite's `test`, with its fixtures. */
export const test = base.extend<Fixtures & SuiteOptions, { target: Target }>({
  savedLogin: [false, { option: true }],
  /** A project with `savedLogin` starts logged in: the user's own saved login, else the run's (or none). */
  storageState: async ({ savedLogin, target }, use) => {
    await use(savedLogin ? readToolSettings().uiStorageState ?? await openLogin(savedLoginPath(runId()), target) : undefined);
  },
  target: [
    // deno-lint-ignore no-empty-pattern
    async ({}, use) => {
      await use(loadTarget());
    },
    { scope: 'worker' },
  ],
  /** Every test names the target it checked (origins only), for the compliance report of a run or of merged shards. */
  targetNote: [
    async ({ target }, use, testInfo) => {
      testInfo.annotations.push(
        { type: 'target', description: describeTarget(target) },
        { type: 'run', description: runId() },
        { type: 'seed', description: process.env.SLICER_CONTRACT_SEED ?? 'none' },
      );
      await use();
    },
    { auto: true },
  ],
  api: async ({ request, target }, use, testInfo) => {
    // A rate limit's wait is not the test's time: its time limit (if any) grows by it, and the report notes it.
    const onWait = (ms: number, status: number) => {
      if (testInfo.timeout > 0) testInfo.setTimeout(testInfo.timeout + ms);
      testInfo.annotations.push({ type: 'rate limited', description: `answered ${status}: waited ${ms / 1000} s, as asked` });
    };
    await use(new ContractApi(request, target, { clock: systemClock, onWait }));
  },
  controls: async ({ request, target }, use) => {
    await use(target.controlsUrl ? new SandboxControls(request, target.controlsUrl) : undefined);
  },
  page: async ({ page, api }, use, testInfo) => {
    await use(page);
    // Playwright's own failure screenshot cannot mask; this one covers every known secret shown and password fields,
    // and is not taken while a created token is on screen unread (its value is not known, so it cannot be masked).
    if (testInfo.status !== testInfo.expectedStatus && !page.isClosed()) {
      if (await showsUnmarkedToken(page)) {
        testInfo.annotations.push({ type: 'screenshot', description: 'not taken: a new token was on screen, not yet read' });
        return;
      }
      await markSecrets(page, api.secrets()).catch(() => 0);
      const mask = [page.locator(`[${SECRET_ATTRIBUTE}]`), page.locator('input[type=password]')];
      const shot = await page.screenshot({ fullPage: true, mask }).catch(() => undefined);
      if (shot) await testInfo.attach('screenshot on failure (secrets masked)', { body: shot, contentType: 'image/png' });
    }
  },
  tokensPage: async ({ page, target, api }, use) => {
    const login = { username: target.username, password: target.password };
    await use(new TokensPage(page, target.authUrl, login, (value) => api.secret(value)));
  },
  permanentTokens: async ({ context, target }, use, testInfo) => {
    const created: string[] = [];
    // The run id lets a cleanup revoke this run's tokens and never a concurrent run's.
    const run = runId();
    // The test's tag in its token names: its own (a test id starts with its file's), the same on every attempt of it.
    const tag = createHash('sha256').update(testInfo.testId).digest('hex').slice(0, 6);
    await use({
      name(label) {
        const name = runTokenName(run, new Date(), `${tag} ${label}`);
        created.push(name);
        return name;
      },
    });
    // A retry also revokes what the attempts before it left active: a failed attempt's own teardown may not have.
    const retry = testInfo.retry > 0;
    if (created.length === 0 && !retry) return;
    // Teardown runs when the test failed too: revoke whatever it left active.
    const page = await context.newPage();
    const tokens = new TokensPage(page, target.authUrl, { username: target.username, password: target.password });
    await tokens.open();
    const earlier = retry ? await leftByEarlierAttempts(tokens, run, tag, created) : [];
    await tokens.revokeEvery([...created, ...earlier]);
    await page.close();
  },
});

/**
 * The tokens an earlier attempt of a test left: this run's, with the test's tag, as the list shows their names.
 *
 * @param tokens the TOKENS page, open
 * @param runId the run
 * @param tag the test's tag in its token names
 * @param created the names this attempt created (revoked anyway)
 * @returns the names to revoke (those shown as revoked too: revoking passes them over)
 */
async function leftByEarlierAttempts(tokens: TokensPage, runId: string, tag: string, created: readonly string[]): Promise<string[]> {
  return (await tokens.namesLike(testTokenNames(runId, tag))).filter((name) => !created.includes(name));
}
