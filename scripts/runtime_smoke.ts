/**
 * Smoke test run unchanged under Node (tsx), Deno and Bun against a sandbox in
 * test mode whose settings are in the environment (`SLICER_*`). Imports
 * `mod.ts`, gets tokens for both scopes, calls with both transports, crosses a
 * short token lifetime with a refresh, checks the documented configuration
 * error, and exits by itself. Prints "smoke ok <runtime>" on success.
 */
import process from 'node:process';
import { authedFetch, ConfigError, createAuthClient, ErrorCode, getToken } from '../mod.ts';

function check(condition: unknown, what: string): void {
  if (!condition) throw new Error(`Smoke check failed: ${what}`);
}

const runtime = 'Deno' in globalThis ? 'deno' : 'Bun' in globalThis ? 'bun' : 'node';
const authUrl = process.env.SLICER_AUTH_URL as string;
const control = (path: string, body: unknown) =>
  fetch(`${authUrl}/__test/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((
    r,
  ) => r.json());

// The free functions, configured from the environment.
const slicer = await getToken();
const predict = await getToken('predict');
check(slicer && predict && slicer !== predict, 'one token per scope');
const echo = await authedFetch.post('smoke', { json: { runtime } }).json<{ status: string; service: string }>();
check(echo.status === 'success' && echo.service === 'slicer', 'authedFetch with the header transport');

// Post transport, both services; process.env given as `env` (Deno with a narrow --allow-env refuses to list it).
const post = createAuthClient({ transport: 'post', env: process.env, envFile: false });
for (const scope of ['slicer', 'predict'] as const) {
  const answer = await post.authedFetch.post('smoke', { scope, body: new URLSearchParams({ runtime }) }).json<
    { token_via: string; service: string }
  >();
  check(answer.token_via === 'post' && answer.service === scope, `post transport to ${scope}`);
}

// A 10-second lifetime, crossed with a controllable clock on both sides.
await control('settings', { tokenLifetimeSeconds: 10 });
let now = 0;
const short = createAuthClient({ envFile: false, now: () => now });
const first = await short.getToken();
for (let step = 0; step < 6; step++) {
  now += 3000;
  await control('clock', { advanceSeconds: 3 });
  const answer = await short.authedFetch('smoke').json<{ status: string }>();
  check(answer.status === 'success', `call ${step} after ${(step + 1) * 3} s`);
}
check((await short.getToken()) !== first, 'the token was refreshed');
await control('settings', { tokenLifetimeSeconds: 3600 });

// The documented configuration error.
try {
  createAuthClient({ env: {}, envFile: false });
  check(false, 'a ConfigError for an empty configuration');
} catch (error) {
  check(
    error instanceof ConfigError && error.code === ErrorCode.CONFIG_INVALID && /SLICER_SERVICE_ID/.test(error.message),
    'CONFIG_INVALID naming SLICER_SERVICE_ID',
  );
}
console.log(`smoke ok ${runtime}`);
