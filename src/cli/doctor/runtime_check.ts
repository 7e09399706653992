/** The doctor's first check: the runtime and, on Deno, the permissions the module needs. */
import { type Check, ok, warn } from './check.ts';

/** The runtime, with Deno's missing permissions as a warning. */
export const runtimeCheck: Check = {
  id: 'runtime',
  name: 'runtime',
  run() {
    const deno = (globalThis as {
      Deno?: { version: { deno: string }; permissions: { querySync(p: { name: string }): { state: string } } };
    }).Deno;
    const bun = (globalThis as { Bun?: { version: string } }).Bun;
    if (deno) {
      // A grant narrowed to some hosts, variables or paths reads as not granted for all: said as such.
      const flags: Record<string, string> = { env: '--allow-env', net: '--allow-net=<auth and service hosts>', read: '--allow-read=.env' };
      const missing = Object.keys(flags).filter((name) => deno.permissions.querySync({ name }).state !== 'granted');
      const name = `Deno ${deno.version.deno}`;
      if (missing.length === 0) return ok(name);
      return warn(
        `${name}; not granted for everything: ${missing.join(', ')}`,
        `if a check below fails for lack of it, add ${missing.map((m) => flags[m]).join(' ')}`,
      );
    }
    return ok(bun ? `Bun ${bun.version}` : `Node ${process.version}`);
  },
};
