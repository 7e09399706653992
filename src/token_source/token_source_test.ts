import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { inspect } from 'node:util';
import { ErrorCode, isAuthError, TokenRequestRejectedError, type TokenResponseError } from '../errors.ts';
import { processGrantResponse } from './grant_response.ts';
import { sanitizeCause } from './token_source.ts';
import { redactor } from '../redact.ts';
import type { Fault } from '../sandbox/store.ts';
import { parseConfig } from '../settings/config.ts';
import { eventually } from '../testing/eventually.ts';
import { type Harness, harnessForFile } from '../testing/sandbox_harness.ts';

const h = harnessForFile();

const fault = (f: Partial<Fault>) => h.sandbox.store.addFault({ times: 1, ...f });
const json = (body: unknown) => ({ status: 200, body: JSON.stringify(body) });
const scope = () => `service_id=${h.sandbox.env.SLICER_SERVICE_ID}`;

async function failure(options: Parameters<Harness['client']>[0] = {}) {
  return h.client({ tokenRetries: 1, ...options }).getToken().then(
    () => assert.fail('expected getToken to fail'),
    (error: unknown) => {
      assert.ok(isAuthError(error), `not an AuthError: ${String(error)}`);
      return error;
    },
  );
}

describe('token endpoint (contract 4.1)', () => {
  test('a valid grant gives a token with the server lifetime', async () => {
    h.sandbox.store.setLifetime(120);
    const client = h.client();
    const token = await client.getToken();
    assert.ok(token.length >= 43);
    h.advance(100);
    assert.notEqual(await client.getToken(), token, '120 s token refreshed within its last 60 s: the lifetime was not assumed to be 3600');
  });

  test('a 500 is retried and then succeeds: two attempts reach the endpoint', async () => {
    fault({ status: 500, body: '{}' });
    let attempts = 0;
    const counted = (input: string | URL | Request, init?: RequestInit) => (attempts++, fetch(input, init));
    assert.ok(await h.client({ fetch: counted }).getToken());
    assert.equal(attempts, 2, 'the 500, then the retry');
    assert.equal(h.issued(), 1);
  });

  test('a persistent 500 is TOKEN_ENDPOINT_UNAVAILABLE after bounded retries', async () => {
    fault({ status: 500, body: 'oops', times: 5 });
    const error = await failure();
    assert.equal(error.code, ErrorCode.TOKEN_ENDPOINT_UNAVAILABLE);
    assert.match(error.message, /500/);
  });

  test('a 503 with Retry-After is honoured: the retry comes no sooner than asked', async () => {
    // A lower bound on ky's own timer (it takes no injected clock): a loaded machine only makes the wait longer.
    const sent: number[] = [];
    const stamped = (input: string | URL | Request, init?: RequestInit) => (sent.push(performance.now()), fetch(input, init));
    fault({ status: 503, body: '', headers: { 'retry-after': '0.2' } });
    assert.ok(await h.client({ fetch: stamped }).getToken());
    assert.equal(sent.length, 2, 'the 503, then the retry');
    assert.ok((sent[1] as number) - (sent[0] as number) >= 190, `retried after ${(sent[1] as number) - (sent[0] as number)} ms`);
  });

  test('a timeout is retried, then TOKEN_ENDPOINT_UNAVAILABLE', async () => {
    // The late answers are errors, so nothing is issued after this test ends (the next test counts issues).
    fault({ delayMs: 400, times: 2, status: 500, body: '' });
    const error = await failure({ tokenTimeoutMs: 100 });
    assert.equal(error.code, ErrorCode.TOKEN_ENDPOINT_UNAVAILABLE);
    assert.match(error.message, /no complete answer within 100 ms/);
  });

  test('an unreachable endpoint is TOKEN_ENDPOINT_UNAVAILABLE', async () => {
    const error = await failure({ authUrl: 'http://127.0.0.1:9', tokenRetries: 0 });
    assert.equal(error.code, ErrorCode.TOKEN_ENDPOINT_UNAVAILABLE);
    // The runtime's reason, not a bare "fetch failed", is in the message: Node's fetch refuses port 9 as a "bad port"
    // (a cause the message used to drop), Deno blocks it, Bun finds the connection refused.
    assert.match(error.message, /cannot reach 127\.0\.0\.1:9.*(bad port|blocked|refused)/i);
    // No answer came, so an uncaught error's printout lists no status or OAuth field as `undefined`.
    assert.deepEqual(['status', 'error', 'error_description'].filter((field) => Object.hasOwn(error, field)), []);
    assert.doesNotMatch(inspect(error), /undefined/);
  });

  test('a token for another scope than requested is refused', async () => {
    h.sandbox.store.setViolations(['wrong-scope-echo']);
    const error = await failure();
    assert.equal(error.code, ErrorCode.TOKEN_RESPONSE_INVALID);
    assert.deepEqual((error as TokenResponseError).paths, ['scope']);
  });

  test('invalid credentials are TOKEN_REQUEST_REJECTED with the OAuth error, not retried', async () => {
    const error = await failure({ password: 'wrong' });
    assert.ok(error instanceof TokenRequestRejectedError);
    assert.equal(error.code, ErrorCode.TOKEN_REQUEST_REJECTED);
    assert.equal(error.status, 400);
    assert.equal(error.error, 'invalid_grant');
    assert.equal(h.issued(), 0);
  });

  test('an unknown scope is TOKEN_REQUEST_REJECTED invalid_scope', async () => {
    const error = await h.client().getToken('service_id=nope').catch((e: unknown) => e);
    assert.ok(error instanceof TokenRequestRejectedError);
    assert.equal(error.error, 'invalid_scope');
  });
});

describe('secrets never leak', () => {
  const password = 'pa55-w0rd-S3CRET';
  const token = 'tok-VERY-secret-123456';
  const shown = (error: unknown) =>
    [
      inspect(error, { depth: Number.POSITIVE_INFINITY }),
      inspect(error, { depth: Number.POSITIVE_INFINITY, showHidden: true }),
      JSON.stringify(error),
      String((error as Error).stack),
    ].join('\n');

  test('in errors from the token path', async () => {
    h.sandbox.store.addUser('leaky', password);
    const client = () => h.client({ username: 'leaky', password, tokenRetries: 0 });
    const cases: Partial<Fault>[] = [
      {
        status: 400,
        body: JSON.stringify({ error: 'invalid_grant', error_description: `bad password ${password} (${encodeURIComponent(password)})` }),
      },
      json({ token_type: 'MAC', scope: scope(), access_token: token, expires_in: '3600' }),
      json({ token_type: 'Bearer', scope: `service_id=${token}`, access_token: token, expires_in: '3600' }),
      json({ token_type: 'Bearer', scope: scope(), access_token: token, expires_in: token }),
      { status: 500, body: password },
    ];
    for (const c of cases) {
      fault(c);
      const error = await client().getToken().catch((e: unknown) => e);
      assert.ok(isAuthError(error));
      const text = shown(error);
      assert.ok(!text.includes(password), `password leaked: ${text}`);
      assert.ok(!text.includes(token), `token leaked: ${text}`);
    }
    const unreachable = await h.client({ authUrl: 'http://127.0.0.1:9', password, tokenRetries: 0 }).getToken().catch((e: unknown) => e);
    assert.ok(!shown(unreachable).includes(password));
  });

  test('in the configuration a client holds, and in the client', async () => {
    const config = parseConfig(h.sandbox.env, { password, staticToken: token });
    const client = h.client({ password, staticToken: token });
    for (const value of [config, client]) {
      const shownValue = [inspect(value, { depth: Number.POSITIVE_INFINITY, showHidden: true }), JSON.stringify(value)].join('\n');
      assert.ok(!shownValue.includes(password) && !shownValue.includes(token), shownValue);
    }
    assert.match(inspect(config), /password: \[redacted\]/, 'the password is there, boxed');
    assert.equal(config.password?.reveal(), password);
  });

  test('in warnings', async () => {
    h.sandbox.store.setLifetime(60);
    const client = h.client({ tokenRetries: 0 });
    const token = await client.getToken();
    // The failing answer echoes the password and the token, as a careless server might.
    h.sandbox.store.addFault({ status: 500, body: `${h.sandbox.env.SLICER_PASSWORD} ${token}`, times: 1 });
    h.advance(40); // early in the 30 s margin: a background refresh runs, fails and is logged
    assert.equal(await client.getToken(), token);
    await eventually(
      () => h.warnings.some((w) => /Background token refresh .* failed \(TOKEN_ENDPOINT_UNAVAILABLE\)/.test(w)),
      'the warning',
    );
    const warned = h.warnings.join('\n');
    assert.ok(!warned.includes(h.sandbox.env.SLICER_PASSWORD) && !warned.includes(token), warned);
  });
});

describe('processGrantResponse: status, content type and body → grant, or code and paths (table)', () => {
  const SCOPE = 'service_id=s1';
  const good = { token_type: 'Bearer', scope: SCOPE, access_token: 'abc', expires_in: '3600' };
  type Row = [what: string, status: number, type: string, body: string, expected: string | { lifetime: number }, paths?: string[]];
  const rows: Row[] = [
    ['the documented answer', 200, 'application/json', JSON.stringify(good), { lifetime: 3600_000 }],
    [
      'a numeric expires_in, lower-case bearer',
      200,
      'application/json',
      JSON.stringify({ ...good, token_type: 'bearer', expires_in: 60 }),
      {
        lifetime: 60_000,
      },
    ],
    ['an HTML page', 200, 'text/html', '<!doctype html><title>Login</title>', 'TOKEN_RESPONSE_INVALID', []],
    ['malformed JSON', 200, 'application/json', '{"token_type": "Bearer", ', 'TOKEN_RESPONSE_INVALID', []],
    ['a wrong token_type', 200, 'application/json', JSON.stringify({ ...good, token_type: 'MAC' }), 'TOKEN_RESPONSE_INVALID', [
      'token_type',
    ]],
    ['missing fields', 200, 'application/json', JSON.stringify({ scope: SCOPE }), 'TOKEN_RESPONSE_INVALID', [
      'token_type',
      'access_token',
    ]],
    ['no expires_in (contract part 8: 3600 s)', 200, 'application/json', JSON.stringify({ ...good, expires_in: undefined }), {
      lifetime: 3600_000,
    }],
    [
      'an expires_in that is no number',
      200,
      'application/json',
      JSON.stringify({ ...good, expires_in: 'soon' }),
      'TOKEN_RESPONSE_INVALID',
      [
        'expires_in',
      ],
    ],
    ['an empty expires_in', 200, 'application/json', JSON.stringify({ ...good, expires_in: '' }), 'TOKEN_RESPONSE_INVALID', ['expires_in']],
    ['a zero expires_in', 200, 'application/json', JSON.stringify({ ...good, expires_in: '0' }), 'TOKEN_RESPONSE_INVALID', ['expires_in']],
    ...['0.999', 0.5, '1e-9'].map((expires_in): Row => [
      `an expires_in under 1 s: ${JSON.stringify(expires_in)}`,
      200,
      'application/json',
      JSON.stringify({ ...good, expires_in }),
      'TOKEN_RESPONSE_INVALID',
      ['expires_in'],
    ]),
    ['an expires_in of 1 s', 200, 'application/json', JSON.stringify({ ...good, expires_in: '1' }), { lifetime: 1_000 }],
    ['an empty access_token', 200, 'application/json', JSON.stringify({ ...good, access_token: '' }), 'TOKEN_RESPONSE_INVALID', [
      'access_token',
    ]],
    ['another scope', 200, 'application/json', JSON.stringify({ ...good, scope: 'service_id=other' }), 'TOKEN_RESPONSE_INVALID', ['scope']],
    ['no scope (RFC 6749 §5.1: the requested one)', 200, 'application/json', JSON.stringify({ ...good, scope: undefined }), {
      lifetime: 3600_000,
    }],
    ['a scope list holding the requested one', 200, 'application/json', JSON.stringify({ ...good, scope: ` openid  ${SCOPE} ` }), {
      lifetime: 3600_000,
    }],
    ['a scope list without it', 200, 'application/json', JSON.stringify({ ...good, scope: `openid ${SCOPE}x` }), 'TOKEN_RESPONSE_INVALID', [
      'scope',
    ]],
    ['a scope that is no string', 200, 'application/json', JSON.stringify({ ...good, scope: 7 }), 'TOKEN_RESPONSE_INVALID', ['scope']],
    [
      'a null scope, as some serialisers write one left out (the requested one)',
      200,
      'application/json',
      JSON.stringify({
        ...good,
        scope: null,
      }),
      { lifetime: 3600_000 },
    ],
    [
      'an access_token of Latin-1 with a space inside (a header carries it)',
      200,
      'application/json',
      JSON.stringify({
        ...good,
        access_token: 'ab\u00e9 c\td',
      }),
      { lifetime: 3600_000 },
    ],
    ...['a\nb', 'a\r\nX-Injected: 1', 'a\u0000b', 'a\u007fb', 'a\u6f22b', ' ab', 'ab\t'].map((token): Row => [
      `an access_token no header can carry: ${JSON.stringify(token)}`,
      200,
      'application/json',
      JSON.stringify({ ...good, access_token: token }),
      'TOKEN_RESPONSE_INVALID',
      ['access_token'],
    ]),
    ['a JSON array', 200, 'application/json', '[1,2]', 'TOKEN_RESPONSE_INVALID', ['(body)']],
    ['an OAuth refusal', 400, 'application/json', '{"error":"invalid_grant"}', 'TOKEN_REQUEST_REJECTED'],
    ['a refusal that is not JSON', 401, 'text/plain', 'no', 'TOKEN_REQUEST_REJECTED'],
  ];
  for (const [what, status, type, body, expected, paths] of rows) {
    test(what, async () => {
      const response = new Response(body, { status, headers: { 'content-type': type } });
      const outcome = await processGrantResponse(response, SCOPE, 1000, redactor([])).catch((e: unknown) => e);
      if (typeof expected === 'object') {
        assert.deepEqual(outcome, {
          token: (JSON.parse(body) as { access_token: string }).access_token,
          expiresAt: 1000 + expected.lifetime,
          lifetime: expected.lifetime,
        });
        return;
      }
      assert.ok(isAuthError(outcome), String(outcome));
      assert.equal(outcome.code, expected);
      if (paths) assert.deepEqual((outcome as TokenResponseError).paths, paths);
      if (what === 'an HTML page') assert.match(outcome.message, /HTML page.*text\/html/);
    });
  }
});

describe('sanitizeCause', () => {
  test('copies names, messages (redacted) and string codes down the chain, and nothing else', () => {
    const root = Object.assign(new Error('connect to host with pw failed'), { code: 'ECONNREFUSED', options: { body: 'pw' } });
    const top = new TypeError('fetch failed', { cause: root });
    const copy = sanitizeCause(top, redactor(['pw']));
    assert.equal(copy.name, 'TypeError');
    assert.equal(copy.message, 'fetch failed');
    assert.equal(copy.stack, 'TypeError: fetch failed');
    const cause = copy.cause as Error & { code?: string };
    assert.equal(cause.message, 'connect to host with [redacted] failed');
    assert.equal(cause.code, 'ECONNREFUSED');
    assert.equal(cause.stack, 'Error: connect to host with [redacted] failed');
    assert.deepEqual(Object.keys(cause), ['name', 'code'], 'no options, no body');
    assert.equal(cause.cause, undefined);
  });

  test('a numeric code is not copied; a thrown non-error becomes an Error of its text', () => {
    const copy = sanitizeCause(Object.assign(new Error('x'), { code: 42 }), redactor([]));
    assert.deepEqual(Object.keys(copy), ['name']);
    const thrown = sanitizeCause('secret pw', redactor(['pw']));
    assert.ok(thrown instanceof Error);
    assert.equal(thrown.message, 'secret [redacted]');
  });

  test('copies at most six links of a chain (a cycle ends there too)', () => {
    const cyclic = new Error('loop');
    cyclic.cause = cyclic;
    let depth = 0;
    for (let e: unknown = sanitizeCause(cyclic, redactor([])); e instanceof Error; e = e.cause) depth++;
    assert.equal(depth, 6);
  });
});
