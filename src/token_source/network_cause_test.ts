/**
 * An https URL whose server speaks no TLS, most often one that serves plain
 * http (as the sandbox does), and a port where something that speaks no HTTP
 * answers: every path that reaches them names the reason and its fix, as Node,
 * Bun and Deno tell it; and an error's words are shown on one line.
 */
import assert from 'node:assert/strict';
import { type AddressInfo, createServer } from 'node:net';
import { after, before, test } from 'node:test';
import { main } from '../cli/main.ts';
import { createAuthClient } from '../client.ts';
import { ErrorCode, isAuthError } from '../errors.ts';
import { networkCause, networkFix, shortMessage } from './network_cause.ts';
import { listen, type Listening } from '../sandbox/serve.ts';

const FIX = 'the TLS handshake failed: if the server at that address serves plain http (as the sandbox does), ' +
  'its URL starts with http://';

const NOT_HTTP = "the answer at that address is not valid HTTP: check the URL's port (another program may listen there)";

let plain: Listening;
let requests = 0;
// Something that speaks no HTTP (SSH, say): it answers each connection with its banner.
const ssh = createServer((socket) => socket.on('error', () => undefined).once('data', () => socket.end('SSH-2.0-OpenSSH_9.2\r\n')));
before(async () => {
  plain = await listen(() => (requests++, new Response('{}')));
  await new Promise<void>((resolve) => ssh.listen(0, '127.0.0.1', resolve));
});
after(async () => {
  ssh.close();
  await plain.close();
});

/**
 * Asks a token endpoint for a token once.
 *
 * @param authUrl its base address
 * @returns the message of the `TOKEN_ENDPOINT_UNAVAILABLE` error it fails with
 */
async function tokenFailure(authUrl: string): Promise<string> {
  const client = createAuthClient({
    authUrl,
    username: 'ci',
    password: 'pw-never-shown',
    serviceId: 'slicer-id',
    env: {},
    envFile: false,
    tokenRetries: 0,
  });
  try {
    await client.getToken();
  } catch (error) {
    assert.ok(isAuthError(error) && error.code === ErrorCode.TOKEN_ENDPOINT_UNAVAILABLE, String(error));
    return error.message;
  } finally {
    await client.close();
  }
  assert.fail(`a token from ${authUrl}`);
}

test('a token request to https on a plain-http port names the reason and the fix; no request reaches the server', async () => {
  assert.equal(
    await tokenFailure(`https://127.0.0.1:${plain.port}`),
    `Cannot get a token for scope "service_id=slicer-id" from https://127.0.0.1:${plain.port}/oauth2/token/: ` +
      `cannot reach 127.0.0.1:${plain.port} (ERR_SSL_WRONG_VERSION_NUMBER): fetch failed; ${FIX}`,
  );
  assert.equal(requests, 0);
});

test('slicer-auth call to https on a plain-http port says the same fix', async () => {
  const err: string[] = [];
  const env = {
    SLICER_BASE_URL: `https://127.0.0.1:${plain.port}/slicer`,
    SLICER_SERVICE_ID: 'slicer-id',
    SLICER_STATIC_TOKEN: 'p'.repeat(43),
    SLICER_ENV_FILE: '/dev/null',
  };
  const code = await main(['call', 'GET', 'jobs'], { out: () => undefined, err: (line) => err.push(line), raw: () => undefined, env });
  assert.deepEqual([code, err], [1, [`Failed: cannot reach 127.0.0.1:${plain.port} (ERR_SSL_WRONG_VERSION_NUMBER): ${FIX}`]]);
  assert.equal(requests, 0);
});

test('a token request to a port where something that speaks no HTTP answers names the reason and the fix', async () => {
  const { port } = ssh.address() as AddressInfo;
  assert.equal(
    await tokenFailure(`http://127.0.0.1:${port}`),
    `Cannot get a token for scope "service_id=slicer-id" from http://127.0.0.1:${port}/oauth2/token/: ` +
      `cannot reach 127.0.0.1:${port} (HPE_INVALID_CONSTANT): fetch failed; ${NOT_HTTP}`,
  );
});

test('no HTTP as Node, Bun and Deno tell it gets that fix', () => {
  const node = new TypeError('fetch failed', {
    cause: Object.assign(new Error('Response does not match the HTTP/1.1 protocol (Expected HTTP/)'), { code: 'HPE_INVALID_CONSTANT' }),
  });
  const bun = Object.assign(new TypeError('Malformed_HTTP_Response fetching "http://127.0.0.1:8795/".'), {
    code: 'Malformed_HTTP_Response',
  });
  const deno = new TypeError('fetch failed', {
    cause: new Error(
      'error sending request from 127.0.0.1:33336 for http://127.0.0.1:8795/ (127.0.0.1:8795): client error (SendRequest): ' +
        'invalid HTTP version parsed',
    ),
  });
  assert.deepEqual([networkCause(node), networkCause(bun), networkCause(deno)], [
    'HPE_INVALID_CONSTANT',
    'Malformed_HTTP_Response',
    'invalid http version parsed',
  ]);
  for (const cause of [networkCause(node), networkCause(bun), networkCause(deno), 'HPE_HEADER_OVERFLOW']) {
    assert.equal(networkFix(cause, 'check the URL'), NOT_HTTP, cause);
  }
  for (const cause of ['HPE_', 'X_HPE_INVALID', 'Malformed_HTTP_ResponseX', 'invalid http parsed']) {
    assert.equal(networkFix(cause, 'check the URL'), 'check the URL', cause);
  }
});

test("no TLS as Node, Bun and Deno tell it gets that fix; any other reason keeps the caller's", () => {
  const node = new TypeError('fetch failed', {
    cause: Object.assign(new Error('C0B7:error:0A00010B:SSL routines:ssl3_get_record:wrong version number:ssl3_record.c:354:\n'), {
      code: 'ERR_SSL_WRONG_VERSION_NUMBER',
    }),
  });
  const bun = Object.assign(new Error('The TLS handshake failed. Does the server speak TLS on this port?'), { code: 'EPROTO' });
  const deno = new TypeError('fetch failed', {
    cause: new Error(
      'error sending request for url (https://127.0.0.1:8786/): client error (Connect): received corrupt message of type InvalidContentType',
    ),
  });
  assert.deepEqual([networkCause(node), networkCause(bun), networkCause(deno)], [
    'ERR_SSL_WRONG_VERSION_NUMBER',
    'EPROTO',
    'received corrupt message',
  ]);
  for (const cause of [networkCause(node), networkCause(bun), networkCause(deno)]) {
    assert.equal(networkFix(cause, 'check the URL'), FIX, cause);
  }
  // A reason is matched whole.
  for (const cause of ['ECONNREFUSED', 'ERR_SSL_WRONG_VERSION_NUMBER_X', 'X_EPROTO', 'received corrupt messages', undefined]) {
    assert.equal(networkFix(cause, 'check the URL'), 'check the URL', cause);
  }
});

test('a connection refused at a plain-http loopback address, as Node, Bun and Deno tell it, also names how to start the sandbox there', () => {
  const sandbox = (flag: string) =>
    `check the URL (if it is the sandbox's address, start the sandbox: "npx slicer-auth sandbox${flag}" in another terminal)`;
  const rows: [string | undefined, string | undefined, string][] = [
    ['ECONNREFUSED', 'http://127.0.0.1:8787/oauth2/token/', sandbox('')],
    ['ECONNREFUSED', 'http://localhost:9011', sandbox(' --port 9011')],
    ['connection refused', 'http://[::1]:8787/slicer', sandbox('')],
    ['ECONNREFUSED', 'http://127.0.0.1/', sandbox(' --port 80')],
    // The sandbox serves plain http on loopback: elsewhere, or over https, the caller's fix alone.
    ['ECONNREFUSED', 'https://127.0.0.1:8787/', 'check the URL'],
    ['ECONNREFUSED', 'http://auth.example:8787/', 'check the URL'],
    ['ECONNRESET', 'http://127.0.0.1:8787/', 'check the URL'],
    ['ECONNREFUSEDX', 'http://127.0.0.1:8787/', 'check the URL'],
    ['no connection refused', 'http://127.0.0.1:8787/', 'check the URL'],
    [undefined, 'http://127.0.0.1:8787/', 'check the URL'],
    ['ECONNREFUSED', undefined, 'check the URL'],
  ];
  for (const [cause, url, fix] of rows) assert.equal(networkFix(cause, 'check the URL', url), fix, `${cause} at ${url}`);
});

test("an error's words on one line: OpenSSL's error string as its reason alone, as Node and Bun give it", () => {
  const rows: [unknown, string][] = [
    [new Error('C0B7:error:0A00010B:SSL routines:ssl3_get_record:wrong version number:ssl3_record.c:354:\n'), 'wrong version number'],
    [new Error('error:100000f7:SSL routines:OPENSSL_internal:WRONG_VERSION_NUMBER'), 'wrong version number'],
    [new Error('connect ECONNREFUSED 127.0.0.1:9\nmore'), 'connect ECONNREFUSED 127.0.0.1:9'],
    [new Error(''), ''],
    ['not an error', 'not an error'],
  ];
  for (const [error, words] of rows) assert.equal(shortMessage(error), words, String(error));
});
