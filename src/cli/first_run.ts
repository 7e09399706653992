/**
 * What a first run with nothing configured is told: the variables to set, and
 * how to try everything on the embedded sandbox first. Shared by the CLI's
 * configuration errors and the doctor.
 */
import { readEnv } from '../env.ts';

/** The fix for a set-up where no SLICER_* variable is set anywhere. */
export const FIRST_RUN_FIX = 'set SLICER_AUTH_URL, SLICER_USERNAME, SLICER_PASSWORD, SLICER_SERVICE_ID and SLICER_BASE_URL in the ' +
  'environment or .env ("npx slicer-auth init" writes a .env that lists every setting, with its meaning); to try it on the ' +
  'embedded sandbox first, run "npx slicer-auth demo", or "npx slicer-auth init --sandbox" and "npx slicer-auth sandbox"';

/**
 * Whether no SLICER_* setting is set, neither in the environment nor in the env file.
 *
 * @param env the environment to look in (then its env file)
 * @param found what `readEnv` found, when the caller read it already; else read here
 * @returns true on a first run; false when something is set or the env file cannot be read
 */
export function nothingConfigured(env?: Readonly<Record<string, string | undefined>>, found?: object): boolean {
  try {
    return Object.keys(found ?? readEnv({ env })).length === 0;
  } catch {
    return false; // an explicit env file that cannot be read: its own error says so
  }
}
