/**
 * Test helper: private scratch folders under the OS temp folder, removed when
 * the test process exits, so no `.env`, cache file or upload outlives the run
 * (under `deno test` too, which emits no `exit` on `process`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];

/** Removes every folder made by this process. */
function removeAll(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/**
 * Makes a private (0700) folder, removed when this process exits.
 *
 * @param prefix the start of its name, saying which test made it
 * @returns its path
 */
export function scratchDir(prefix: string): string {
  if (made.length === 0) {
    process.once('exit', removeAll);
    // Deno dispatches `unload` on the global scope as it exits, `deno test` included; Node has no such event.
    globalThis.addEventListener?.('unload', removeAll);
  }
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}
