/**
 * Starts the sandbox in test mode when no live service is configured, and
 * stops it after the run. `SLICER_SANDBOX_VIOLATIONS` (comma-separated) turns
 * on deliberate contract violations through the test controls, for the
 * suite's own tests.
 */
import process from 'node:process';
import { startSandbox, type UiVariant } from '../src/sandbox/mod.ts';
import { readToolSettings } from '../src/tool_settings.ts';
import { liveConfigured, loadTarget } from './target.ts';

/** Playwright global setup; returns the teardown. */
export default async function globalSetup(): Promise<(() => Promise<void>) | undefined> {
  if (liveConfigured()) {
    const target = loadTarget(); // fails early, listing missing variables
    console.log(`Contract suite: live target ${target.authUrl}`);
    return undefined;
  }
  // SLICER_SANDBOX_UI_VARIANT (0–3) serves an alternative UI: the suite must not know which one it faces.
  const tools = readToolSettings();
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
  console.log(
    `Contract suite: embedded sandbox at ${sandbox.env.SLICER_AUTH_URL}${
      violations.length ? ` (violating: ${violations.join(', ')})` : ''
    }${uiVariant ? `, UI variant ${uiVariant}` : ''}`,
  );
  return () => sandbox.close();
}
