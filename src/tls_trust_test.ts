/**
 * A service whose certificate an organisation's own CA issues, as staging
 * services often are: every path that reaches it names the untrusted issuer
 * and the fix (trusting that CA), and the fix works.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { main } from './cli/main.ts';
import { createAuthClient } from './client.ts';
import { ErrorCode, isAuthError } from './errors.ts';
import type { Listening } from './sandbox/serve.ts';
import { runTs } from './testing/processes.ts';
import { listenTls, TEST_CA_FILE } from './testing/tls_server.ts';
import { networkCause, networkFix } from './token_source/network_cause.ts';

const FIX = "the certificate's issuer is not trusted here: if your organisation's own CA issues it, trust that CA " +
  '(NODE_EXTRA_CA_CERTS=<ca.pem> for Node and Bun, DENO_CERT=<ca.pem> for Deno)';
const TOKEN = { access_token: 'a'.repeat(43), token_type: 'Bearer', expires_in: '3600', scope: 'service_id=slicer-id' };

let tls: Listening;
before(async () => {
  tls = await listenTls((request) =>
    new URL(request.url).pathname === '/oauth2/token/' ? Response.json(TOKEN) : new Response('{"status":"success"}')
  );
});
after(() => tls.close());

const settings = () => ({ authUrl: tls.origin, username: 'ci', password: 'pw-never-shown', serviceId: 'slicer-id' });

test('a token request to a service whose CA is not trusted names the reason and the fix', async () => {
  const client = createAuthClient({ ...settings(), env: {}, envFile: false, tokenRetries: 0 });
  await assert.rejects(client.getToken(), (error: unknown) => {
    assert.ok(isAuthError(error) && error.code === ErrorCode.TOKEN_ENDPOINT_UNAVAILABLE);
    assert.equal(
      error.message,
      `Cannot get a token for scope "service_id=slicer-id" from ${tls.origin}/oauth2/token/: ` +
        `cannot reach 127.0.0.1:${tls.port} (UNABLE_TO_VERIFY_LEAF_SIGNATURE): fetch failed; ${FIX}`,
    );
    return true;
  });
  await client.close();
});

test('the fix works: with the CA in NODE_EXTRA_CA_CERTS, the same request gets its token', async () => {
  const mod = new URL('../mod.ts', import.meta.url).href;
  const script = `import { createAuthClient } from ${JSON.stringify(mod)};
const client = createAuthClient({ ...${JSON.stringify(settings())}, env: {}, envFile: false, tokenRetries: 0 });
console.log((await client.getTokenInfo()).source);
await client.close();`;
  const run = await runTs(['--input-type=module', '-e', script], { PATH: process.env.PATH, NODE_EXTRA_CA_CERTS: TEST_CA_FILE });
  assert.equal(run.code, 0, run.err);
  assert.equal(run.out, 'request\n');
});

test('slicer-auth call to such a service says the same fix', async () => {
  const err: string[] = [];
  const env = {
    SLICER_BASE_URL: tls.origin,
    SLICER_SERVICE_ID: 'slicer-id',
    SLICER_STATIC_TOKEN: 'p'.repeat(43),
    SLICER_ENV_FILE: '/dev/null',
  };
  const code = await main(['call', 'GET', 'jobs'], { out: () => undefined, err: (line) => err.push(line), raw: () => undefined, env });
  assert.equal(code, 1);
  assert.deepEqual(err, [`Failed: cannot reach 127.0.0.1:${tls.port} (UNABLE_TO_VERIFY_LEAF_SIGNATURE): ${FIX}`]);
});

test('an untrusted issuer as Node, Bun and Deno tell it; an expired or misnamed certificate is another problem', () => {
  const deno = new TypeError('fetch failed', {
    cause: new Error(
      'error sending request for url (https://127.0.0.1:8943/): client error (Connect): invalid peer certificate: UnknownIssuer',
    ),
  });
  assert.equal(networkCause(deno), 'invalid peer certificate: UnknownIssuer');
  const untrusted = [
    'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    'UNABLE_TO_GET_ISSUER_CERT',
    'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
    'SELF_SIGNED_CERT_IN_CHAIN',
    'DEPTH_ZERO_SELF_SIGNED_CERT',
    networkCause(deno),
  ];
  for (const cause of untrusted) {
    assert.equal(networkFix(cause, 'another fix'), FIX, cause);
  }
  // A code is matched whole: one that only holds a known code, or starts with one, is another reason.
  const other = [
    'CERT_HAS_EXPIRED',
    'ERR_TLS_CERT_ALTNAME_INVALID',
    'ECONNREFUSED',
    'certificate',
    undefined,
    'X_SELF_SIGNED_CERT_IN_CHAIN',
  ];
  for (const cause of [...other, 'SELF_SIGNED_CERT_IN_CHAIN_X', 'invalid peer certificate: UnknownIssuerX']) {
    assert.equal(networkFix(cause, 'another fix'), 'another fix', cause);
  }
});
