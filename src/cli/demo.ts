/**
 * `npm start`: the zero-configuration demo. Without `SLICER_AUTH_URL` it
 * starts the sandbox in-process; then it gets tokens for both scopes, calls
 * both services with both transports, shows a refresh before expiry (sandbox
 * clock), uses a permanent token, prints what happened, and exits. Against a
 * configured service it only reads: a GET of each base URL.
 */
import { createHash } from 'node:crypto';
import { type AuthClientOptions, createAuthClient } from '../client.ts';
import { systemClock } from '../clock.ts';
import { type Sandbox, startSandbox } from '../sandbox/mod.ts';
import { readEnv } from '../settings/env.ts';
import { clientContext, type Io } from './usage.ts';

interface Echo {
  status: string;
  service: string;
  token_via?: string;
}

/** A short fingerprint that identifies a token without revealing it. */
function fingerprint(token: string): string {
  return `sha256:${createHash('sha256').update(token).digest('hex').slice(0, 10)}`;
}

/**
 * Runs the demo.
 *
 * @param io output streams
 * @returns the exit code
 */
export async function demo(io: Io): Promise<number> {
  const configured = readEnv({ env: io.env });
  let sandbox: Sandbox | undefined;
  let offsetMs = 0;
  const options: AuthClientOptions = { ...clientContext(io), now: () => systemClock.now() + offsetMs };
  if (!configured.SLICER_AUTH_URL && !configured.SLICER_STATIC_TOKEN) {
    sandbox = await startSandbox({ testMode: true });
    io.out(`No SLICER_AUTH_URL configured: started the embedded sandbox at ${sandbox.env.SLICER_AUTH_URL}`);
    Object.assign(options, { env: sandbox.env, envFile: false });
  } else {
    io.out(`Using the configured service at ${configured.SLICER_AUTH_URL?.value ?? '(permanent tokens only)'}`);
  }
  try {
    const client = createAuthClient(options);
    const post = createAuthClient({ ...options, transport: 'post' });
    const step = (text: string) => io.out(`  ✓ ${text}`);

    io.out('\n1. Tokens for both scopes');
    const slicerToken = await client.getToken('slicer');
    step(`slicer token ${fingerprint(slicerToken)}`);
    const predictConfigured = Boolean(sandbox ?? configured.SLICER_PREDICT_SERVICE_ID);
    if (predictConfigured) step(`predict token ${fingerprint(await client.getToken('predict'))}`);

    if (sandbox) {
      io.out('\n2. Authenticated calls, both transports');
      for (const [label, c] of [['header', client], ['post', post]] as const) {
        for (const scope of ['slicer', 'predict'] as const) {
          const echo = await c.authedFetch.post('demo', { scope, body: new URLSearchParams({ demo: '1' }) }).json<Echo>();
          step(`${label} transport → ${echo.service}: ${echo.status} (token sent as ${echo.token_via})`);
        }
      }
    } else {
      // A service of one's own: a GET of each base URL, which changes nothing there. Any answer but a 401 (which fails
      // the demo, as UNAUTHORIZED) means the token was taken.
      io.out('\n2. Authenticated calls: a GET of each base URL');
      for (const scope of predictConfigured && configured.SLICER_PREDICT_BASE_URL ? ['slicer', 'predict'] as const : ['slicer'] as const) {
        const answer = await client.authedFetch('', { scope, throwHttpErrors: false, retry: 0 });
        step(`GET ${client.baseUrl(scope)}/ → ${answer.status}: the token was not refused`);
      }
    }

    io.out('\n3. Refresh before expiry');
    if (sandbox) {
      const before = sandbox.store.stats().issued[sandbox.env.SLICER_SERVICE_ID] ?? 0;
      offsetMs += 3500_000;
      sandbox.clock.advance(3500_000);
      const fresh = await client.getToken('slicer');
      const after = sandbox.store.stats().issued[sandbox.env.SLICER_SERVICE_ID] ?? 0;
      step(`clock moved 3500 s ahead (100 s before expiry): new token ${fingerprint(fresh)}, ${after - before} token request`);
      const echo = await client.authedFetch('demo').json<Echo>();
      step(`the service accepts it: ${echo.status}`);
    } else {
      const fresh = await client.getToken('slicer', { minValidity: 3500 });
      step(`asked for a token valid 3500 s more: ${fingerprint(fresh)}`);
    }

    io.out('\n4. Permanent token');
    if (sandbox) {
      const { value } = sandbox.store.issuePermanent(sandbox.env.SLICER_USERNAME, 'npm-start-demo', [sandbox.env.SLICER_SERVICE_ID]);
      step('created one in the sandbox (as the UI does: Tokens and sessions → TOKENS → New permanent token)');
      const echo = await createAuthClient({ ...options, staticToken: value }).authedFetch('demo').json<Echo & { token_kind?: string }>();
      step(`call with it: ${echo.status} (${echo.token_kind}), no token request needed`);
    } else if (configured.SLICER_STATIC_TOKEN) {
      step('SLICER_STATIC_TOKEN is configured: the slicer calls above used it, with no token request');
    } else {
      step('none configured (set SLICER_STATIC_TOKEN to use one)');
    }
    io.out('\nDone.');
    return 0;
  } finally {
    await sandbox?.close();
  }
}
