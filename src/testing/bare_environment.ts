/** Test helper: the process environment of a machine where nothing of slicer-auth is configured. */
import process from 'node:process';

/**
 * Removes every `SLICER_` variable from `process.env` (a developer's shell may set some) and points `SLICER_ENV_FILE`
 * at an empty file, so that no `.env` of the working folder is read. For a test file of its own process that reads
 * `process.env`, as the free functions do.
 */
export function bareEnvironment(): void {
  for (const key of Object.keys(process.env)) if (key.startsWith('SLICER_')) delete process.env[key];
  process.env.SLICER_ENV_FILE = '/dev/null';
}
