/**
 * Whether a run has nothing configured: no SLICER_* variable in the
 * environment or the env file. The CLI's configuration errors and the doctor
 * then give the first run's fix (`FIRST_RUN_FIX`, in `config.ts`, which the client's own errors give too).
 */
import { readEnv } from '../settings/env.ts';

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
