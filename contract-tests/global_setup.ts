/**
 * Before the first test: fixes the run id (`SLICER_CONTRACT_RUN_ID`, else a
 * new one) and the key of the run's saved browser login, removes a login an
 * earlier version left in clear, checks a live target's settings (refusing to
 * start when any is missing) and credentials (refusing to start when the token
 * endpoint refuses them), or starts the sandbox in test mode, and prints the
 * target, origins only. The teardown removes the run's saved login.
 * `SLICER_SANDBOX_VIOLATIONS` (comma-separated) turns on deliberate contract
 * violations through the test controls, for the suite's own tests.
 */
import process from 'node:process';
import { runSeed } from './boundaries_ui.ts';
import { checkCredentials } from './credentials_check.ts';
import { EARLIER_LOGIN, savedLoginPath } from './paths.ts';
import { forgetEarlierLogin, forgetLogin, newLoginKey } from './saved_login.ts';
import { newRunId } from '../src/auth_ui/run_tokens.ts';
import { startSandbox, type UiVariant } from '../src/sandbox/mod.ts';
import { readToolSettings } from '../src/settings/tool_settings.ts';
import { describeTarget, ignoredByTheSandbox, liveConfig, loadTarget } from './target.ts';

/** Playwright global setup; returns the teardown. */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const tools = readToolSettings();
  // Workers inherit the environment: every one of them names its tokens with this run id.
  const runId = tools.contractRunId ?? newRunId();
  process.env.SLICER_CONTRACT_RUN_ID = runId;
  // Every worker draws generated values (token names) from this seed; the report prints it, so a run can be replayed.
  process.env.SLICER_CONTRACT_SEED = String(runSeed());
  newLoginKey();
  forgetEarlierLogin(EARLIER_LOGIN, tools.uiStorageState);
  const forget = () => forgetLogin(savedLoginPath(runId));
  if (tools.contractTarget === 'live') {
    const target = loadTarget(); // fails before any test, listing every missing variable
    console.log(`Contract target ${describeTarget(target)} (run ${runId}, seed ${process.env.SLICER_CONTRACT_SEED})`);
    await checkCredentials(liveConfig()); // fails before any test when the token endpoint refuses them
    return async () => forget();
  }
  const ignored = ignoredByTheSandbox();
  // SLICER_SANDBOX_UI_VARIANT (0–6) serves an alternative UI: the suite must not know which one it faces.
  const uiVariant = tools.sandboxUiVariant as UiVariant;
  const sandbox = await startSandbox({ testMode: true, uiVariant });
  const violations = tools.sandboxViolations;
  if (violations.length > 0) {
    const response = await fetch(`${sandbox.env.SLICER_AUTH_URL}/__test/settings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ violations }),
    });
    if (!response.ok) throw new Error(`Cannot set sandbox violations: ${await response.text()}`);
  }
  process.env.SLICER_CONTRACT_SANDBOX_ENV = JSON.stringify(sandbox.env);
  const extras = [violations.length ? `violating: ${violations.join(', ')}` : '', uiVariant ? `UI variant ${uiVariant}` : '']
    .filter(Boolean);
  console.log(
    `Contract target ${describeTarget(loadTarget())}${
      extras.length ? ` (${extras.join(', ')})` : ''
    } (run ${runId}, seed ${process.env.SLICER_CONTRACT_SEED})` +
      (ignored ? `; ${ignored}` : ''),
  );
  return async () => {
    forget();
    await sandbox.close();
  };
}
