/** The doctor's first check: the runtime and, on Deno, the permissions the module needs; on Node, a proxy its fetch ignores. */
import process from 'node:process';
import { type Check, ok, type Outcome, warn } from './check.ts';

/** The variables that name a proxy, as Deno, Bun and curl read them. */
const PROXY_VARIABLES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'] as const;

/**
 * Node's fetch and a proxy named in the environment: Deno and Bun go through
 * it, Node only from 22.21 and 24 on, and only when told to (NODE_USE_ENV_PROXY=1
 * or --use-env-proxy); else every request goes direct, and fails on a network
 * that allows only the proxy.
 *
 * @param version Node's version, e.g. `v20.20.2`
 * @param env the process's environment
 * @returns the warning when a proxy is named and fetch ignores it, else undefined
 */
export function ignoredProxy(version: string, env: Readonly<Record<string, string | undefined>>): Outcome | undefined {
  const named = PROXY_VARIABLES.find((name) => env[name]);
  if (!named) return undefined;
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number);
  const able = major >= 24 || (major === 22 && minor >= 21);
  if (able && (env.NODE_USE_ENV_PROXY === '1' || /(^|\s)--use-env-proxy\b/.test(env.NODE_OPTIONS ?? ''))) return undefined;
  return warn(
    `Node ${version}; ${named} is set, but Node's fetch does not use it: requests go direct`,
    able
      ? 'set NODE_USE_ENV_PROXY=1 if they must go through the proxy'
      : "if they must go through the proxy, use Node 24 (or 22.21+) with NODE_USE_ENV_PROXY=1, or give createAuthClient a fetch that does (undici's EnvHttpProxyAgent)",
  );
}

/** The runtime, with Deno's missing permissions or a proxy Node ignores as a warning. */
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
    if (bun) return ok(`Bun ${bun.version}`);
    return ignoredProxy(process.version, process.env) ?? ok(`Node ${process.version}`);
  },
};
