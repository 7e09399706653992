import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, beforeEach, describe, mock, test } from 'node:test';
import { Hono } from 'hono';
import { HTTPError } from 'ky';
import { type AuthClientOptions, createAuthClient } from './client.ts';
import { systemClock } from './clock.ts';
import { ErrorCode, isAuthError } from './errors.ts';
import type { AuthEvent } from './events.ts';
import { listen, type Listening } from './sandbox/serve.ts';
import { type Harness, harnessForFile } from './testing/sandbox_harness.ts';
import { scratchDir } from './testing/scratch.ts';

const h = harnessForFile();

interface Echo {
  status: string;
  service: string;
  path: string;
  token_via: string;
  token_kind: string;
}

test("baseUrl tells a script where a scope's relative paths go, as configured", () => {
  const client = h.client();
  assert.equal(client.baseUrl(), h.sandbox.env.SLICER_BASE_URL);
  assert.equal(client.baseUrl('predict'), h.sandbox.env.SLICER_PREDICT_BASE_URL);
  assert.equal(client.baseUrl(`service_id=${h.sandbox.env.SLICER_PREDICT_SERVICE_ID}`), h.sandbox.env.SLICER_PREDICT_BASE_URL);
  assert.equal(
    h.client({ predictBaseUrl: undefined, env: { ...h.sandbox.env, SLICER_PREDICT_BASE_URL: undefined } }).baseUrl('predict'),
    undefined,
  );
});

test('an option the client does not take is refused, with the closest it takes (or the option of the variable it spells); a former name is still taken', () => {
  const settings = { env: { SLICER_SERVICE_ID: 'slicer-id' }, envFile: false } as const;
  const given = {
    ...settings,
    authURL: 'https://auth.example.com',
    frobnicate: 1,
    timeout: 5_000,
    tokenTransport: 'post',
    refreshMargin: 60,
    SLICER_STORE_URL: 'redis://127.0.0.1:6379/0',
  } as AuthClientOptions;
  assert.throws(() => createAuthClient(given), (error: unknown) => {
    assert.ok(isAuthError(error) && error.code === ErrorCode.CONFIG_INVALID);
    assert.equal(
      error.message,
      'Cannot configure the slicer client: fix these settings (environment, .env or client options):\n' +
        '  - authURL: not an option of createAuthClient (did you mean authUrl? the option for SLICER_AUTH_URL)\n' +
        '  - frobnicate: not an option of createAuthClient\n' +
        '  - timeout: not an option of createAuthClient (a ky option: give it as ky: { timeout })\n' +
        '  - tokenTransport: not an option of createAuthClient (did you mean transport? the option for SLICER_TOKEN_TRANSPORT)\n' +
        '  - refreshMargin: not an option of createAuthClient (did you mean refreshMarginSeconds?)\n' +
        '  - SLICER_STORE_URL: not an option of createAuthClient (did you mean storeUrl? the option for SLICER_STORE_URL)',
    );
    return true;
  });
  const warn = mock.method(console, 'warn', () => {});
  try {
    assert.equal(
      createAuthClient({ ...settings, tokenCacheFile: undefined, now: () => 0 }).baseUrl(),
      undefined,
      'a former name and code options',
    );
  } finally {
    warn.mock.restore();
  }
});

test('a code option that does not hold what it must is refused, naming the option and what it takes, before any request', () => {
  const rows: [Record<string, unknown>, string][] = [
    [{ tokenTimeoutMs: 0 }, 'tokenTimeoutMs: expected a whole number of ms from 1 to 2147483647'],
    [{ tokenTimeoutMs: 2 ** 31 }, 'tokenTimeoutMs: expected a whole number of ms from 1 to 2147483647'],
    [{ tokenTimeoutMs: '5000' }, 'tokenTimeoutMs: expected a whole number of ms from 1 to 2147483647'],
    [{ tokenRetries: Infinity }, 'tokenRetries: expected a whole number from 0 to 10'],
    [{ tokenRetries: 1.5 }, 'tokenRetries: expected a whole number from 0 to 10'],
    [{ tokenRetries: -1 }, 'tokenRetries: expected a whole number from 0 to 10'],
    [{ fetch: 'fetch' }, 'fetch: expected a function'],
    [{ clock: { now: () => 0 } }, 'clock: expected an object with the methods now, wallNow, sleep'],
    [{ logger: {} }, 'logger: expected an object with the method warn'],
    [{ store: null }, 'store: expected an object with the methods get, put, deleteIfSame, lock'],
    [{ ky: null }, 'ky: expected an object of ky options'],
    [{ openTelemetry: 'yes' }, 'openTelemetry: expected true or false'],
    [{ env: 'SLICER_USERNAME=bot' }, 'env: expected an object of variables, as process.env'],
    [{ env: ['SLICER_USERNAME=bot'] }, 'env: expected an object of variables, as process.env'],
    [{ ky: 'ky' }, 'ky: expected an object of ky options'],
    [
      { frobnicate: 1, tokenRetries: -1 },
      'frobnicate: not an option of createAuthClient\n  - tokenRetries: expected a whole number from 0 to 10',
    ],
    [{ envFile: true }, 'envFile: expected a file path, or false to read none'],
  ];
  for (const [given, line] of rows) {
    assert.throws(
      () => h.client(given as AuthClientOptions),
      (error: unknown) => {
        assert.ok(isAuthError(error) && error.code === ErrorCode.CONFIG_INVALID, JSON.stringify(given));
        assert.equal(
          error.message,
          `Cannot configure the slicer client: fix these settings (environment, .env or client options):\n  - ${line}`,
        );
        return true;
      },
    );
  }
  assert.equal(h.issued(), 0, 'no token was asked for');
  const client = h.client({
    tokenTimeoutMs: 2 ** 31 - 1,
    tokenRetries: 10,
    store: undefined,
    envFile: false,
    openTelemetry: false,
    env: { ...h.sandbox.env, SLICER_LOG_LEVEL: undefined },
  });
  assert.equal(client.baseUrl(), h.sandbox.env.SLICER_BASE_URL, 'the upper limits themselves are taken');
  assert.equal(h.client({ tokenTimeoutMs: 1, tokenRetries: 0 }).baseUrl(), h.sandbox.env.SLICER_BASE_URL, 'the lower limits too');
});

test("getToken's malformed options and scopes are refused, naming them, before any token request", async () => {
  const client = h.client();
  const header = (task: string) => `Cannot ${task}: fix these settings (environment, .env or client options):\n  - `;
  const rows: [unknown, unknown, string][] = [
    [undefined, { minValidity: -1 }, 'minValidity: expected a number of seconds, 0 or more'],
    [undefined, { minValidity: '60' }, 'minValidity: expected a number of seconds, 0 or more'],
    [undefined, { minValidity: NaN }, 'minValidity: expected a number of seconds, 0 or more'],
    [undefined, { minValidity: Infinity }, 'minValidity: expected a number of seconds, 0 or more'],
    [undefined, { forceRefresh: 'no' }, 'forceRefresh: expected true or false'],
    [undefined, { signal: 'stop' }, 'signal: expected an AbortSignal'],
    [undefined, { signal: new EventTarget() }, 'signal: expected an AbortSignal'],
    [undefined, { minvalidity: 60 }, 'minvalidity: not an option of getToken'],
    [undefined, { toString: 60 }, 'toString: not an option of getToken'],
    [undefined, null, 'options: expected an object of options, or undefined'],
    [undefined, 900, 'options: expected an object of options, or undefined'],
  ];
  for (const [scope, getOptions, line] of rows) {
    for (const call of [client.getToken, client.getTokenInfo]) {
      await assert.rejects(call(scope as undefined, getOptions as undefined), (error: unknown) => {
        assert.ok(isAuthError(error) && error.code === ErrorCode.CONFIG_INVALID, String(error));
        assert.equal(error.message, header('use these getToken options') + line);
        return true;
      });
    }
  }
  const badScope = header('use this scope') + 'scope: expected "slicer", "predict" or "service_id=<id>", got "null"';
  await assert.rejects(client.getToken(null as unknown as undefined), { message: badScope });
  // As fetch's, tokenFetch's failures reject: a Promise.allSettled over calls would otherwise throw from its map.
  const pending = client.tokenFetch('jobs', { scope: 'Predict' as 'predict' });
  await assert.rejects(pending, { message: badScope.replace('"null"', '"Predict"') });
  await assert.rejects(client.invalidate(null as unknown as undefined), { message: badScope });
  const prefixed = 'xservice_id=' + h.sandbox.env.SLICER_SERVICE_ID; // the form is the whole scope, not a part of it
  await assert.rejects(client.getToken(prefixed as 'slicer'), { message: badScope.replace('"null"', `"${prefixed}"`) });
  assert.throws(() => client.baseUrl('Predict' as 'predict'), { message: badScope.replace('"null"', '"Predict"') });
  assert.equal(client.baseUrl('service_id=elsewhere'), h.sandbox.env.SLICER_BASE_URL, "another service's id: the default base URL");
  await assert.rejects(
    h.client({ predictServiceId: undefined, env: { ...h.sandbox.env, SLICER_PREDICT_SERVICE_ID: undefined } }).getToken('predict'),
    {
      message: header('use scope "predict"') +
        'SLICER_PREDICT_SERVICE_ID: missing: set it to the prediction service identifier (option predictServiceId)',
    },
  );
  assert.equal(h.issued(), 0, 'no token was asked for');
  const token = await client.getToken('slicer', { minValidity: 0, forceRefresh: false, signal: new AbortController().signal });
  assert.equal(await client.getToken(undefined, {}), token, 'in range, the options are taken');
  assert.equal(h.issued(), 1);
});

describe('tokens and requests against the sandbox', () => {
  test('header transport, both scopes', async () => {
    h.sandbox.store.reset();
    const client = h.client();
    const slicer = await client.authedFetch.get('jobs/1').json<Echo>();
    assert.deepEqual([slicer.status, slicer.service, slicer.path, slicer.token_via], ['success', 'slicer', '/slicer/jobs/1', 'header']);
    const predict = await client.authedFetch.post('/predict', { scope: 'predict', json: { a: 1 } }).json<Echo>();
    assert.deepEqual([predict.service, predict.token_via], ['predict', 'header']);
    assert.notEqual(await client.getToken('slicer'), await client.getToken('predict'));
    assert.equal(await client.getToken(`service_id=${h.sandbox.env.SLICER_SERVICE_ID}`), await client.getToken());
  });

  test('post transport puts the token in form and multipart bodies, the header elsewhere', async () => {
    const client = h.client({ transport: 'post' });
    const form = await client.authedFetch.post('slice', { body: new URLSearchParams({ model: 'a.stl' }) }).json<Echo>();
    assert.equal(form.token_via, 'post');
    const multipart = new FormData();
    multipart.set('file', new Blob(['solid a']), 'a.stl');
    assert.equal((await client.authedFetch.post('slice', { body: multipart }).json<Echo>()).token_via, 'post');
    assert.equal((await client.authedFetch.post('slice', { json: { a: 1 } }).json<Echo>()).token_via, 'header');
    assert.equal((await client.authedFetch.get('jobs').json<Echo>()).token_via, 'header');
    assert.equal((await client.authedFetch.post('x', { scope: 'predict', body: new URLSearchParams() }).json<Echo>()).service, 'predict');
  });

  test("relative paths resolve under the scope's base URL, with or without a leading slash, under a relative prefixUrl", async () => {
    const client = h.client();
    await client.getToken(); // the token is ready: the options made once
    assert.equal((await client.authedFetch('/jobs/2?full=1').json<Echo>()).path, '/slicer/jobs/2');
    assert.equal((await client.authedFetch('//jobs/3').json<Echo>()).path, '/slicer/jobs/3');
    assert.equal((await client.authedFetch('jobs/4', { prefixUrl: '/v2/' }).json<Echo>()).path, '/slicer/v2/jobs/4');
    assert.equal((await client.authedFetch('jobs/5', { scope: 'predict' }).json<Echo>()).path, '/predict/jobs/5');
  });

  test('absolute URLs are allowed', async () => {
    const echo = await h.client().authedFetch(`${h.sandbox.env.SLICER_BASE_URL}/abs`).json<Echo>();
    assert.equal(echo.path, '/slicer/abs');
  });

  test('permanent tokens are used as they are, with no token request; a refused one says so', async () => {
    h.sandbox.store.reset();
    const { value, record } = h.sandbox.store.issuePermanent(h.sandbox.env.SLICER_USERNAME, 'ci', [h.sandbox.env.SLICER_SERVICE_ID]);
    const client = h.client({ staticToken: value, username: '', password: '' });
    assert.equal(await client.getToken(), value);
    assert.equal((await client.authedFetch('a').json<Echo>()).token_kind, 'permanent');
    assert.equal(h.issued(), 0);
    h.sandbox.store.revoke(h.sandbox.env.SLICER_USERNAME, record.id);
    await assert.rejects(client.authedFetch('a'), (error: unknown) => {
      assert.ok(isAuthError(error));
      assert.equal(error.code, ErrorCode.PERMANENT_TOKEN_REJECTED);
      assert.match(error.message, /SLICER_STATIC_TOKEN.*invalid or revoked/);
      return true;
    });
    assert.equal(h.issued(), 0);
    await assert.rejects(
      client.getToken('predict'),
      { code: ErrorCode.CONFIG_INVALID },
      'predict has no permanent token and no credentials',
    );
  });

  test('1,000 concurrent cold getToken calls make one token request; both scopes make two', async () => {
    h.sandbox.store.reset();
    const client = h.client();
    const tokens = await Promise.all(Array.from({ length: 1000 }, () => client.getToken()));
    assert.equal(new Set(tokens).size, 1);
    assert.equal(h.issued(), 1);

    h.sandbox.store.reset();
    const both = h.client();
    const scopes = Array.from({ length: 400 }, (_, i) => (i % 2 ? 'slicer' : 'predict') as 'slicer' | 'predict');
    // No ky timeout: 400 requests at once on a loaded machine may take longer than its 10 s default.
    const results = await Promise.all(scopes.map((scope) => both.authedFetch('who', { scope, timeout: false }).json<Echo>()));
    results.forEach((echo, i) => assert.equal(echo.service, scopes[i]));
    assert.equal(h.issued() + h.issued(h.sandbox.env.SLICER_PREDICT_SERVICE_ID), 2);
  });

  test('expiry crossings under concurrent load: no caller sees a 401, requests ≈ elapsed ÷ lifetime', async () => {
    h.sandbox.store.reset();
    h.sandbox.store.setLifetime(60);
    const client = h.client();
    const elapsed = 600;
    for (let t = 0; t < elapsed; t += 5) {
      const answers = await Promise.all(Array.from({ length: 20 }, () => client.authedFetch('load').json<Echo>()));
      assert.ok(answers.every((a) => a.status === 'success'));
      h.advance(5);
    }
    // 60 s tokens refreshed 30 s (margin = half) before expiry: about elapsed / 30.
    const made = h.issued();
    assert.ok(made >= elapsed / 60 && made <= elapsed / 30 + 2, `made ${made} token requests`);
  });

  test('a 5-second lifetime is refreshed ahead, not on every call', async () => {
    h.sandbox.store.reset();
    h.sandbox.store.setLifetime(5);
    const client = h.client();
    for (let i = 0; i < 100; i++) {
      assert.equal((await client.authedFetch('x').json<Echo>()).status, 'success');
      h.advance(0.2);
    }
    assert.ok(h.issued() >= 6 && h.issued() <= 12, `made ${h.issued()} token requests over 20 s`);
  });

  test('a 401 drops the token and retries once with a fresh one, POST bodies included', async () => {
    h.sandbox.store.reset();
    const client = h.client({ transport: 'post' });
    await client.getToken();
    h.sandbox.store.reset(); // every issued token is now unknown to the service
    const body = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('model=a.stl'));
        controller.close();
      },
    });
    const echo = await client.authedFetch
      .post('slice', { body, headers: { 'content-type': 'application/x-www-form-urlencoded' } })
      .json<Echo>();
    assert.equal(echo.token_via, 'post');
    assert.equal(h.issued(), 1);
  });

  test('the 401 retry happens even with retry: 0, which still turns ordinary retries off', async () => {
    h.sandbox.store.reset();
    const client = h.client();
    await client.getToken();
    h.sandbox.store.reset();
    assert.equal((await client.authedFetch('x', { retry: 0 }).json<Echo>()).status, 'success');
  });

  test('token-endpoint failures inside a request are not retried by ky on top of their own retries', async () => {
    let tokenRequests = 0;
    const client = h.client({
      password: 'wrong',
      fetch: (input, init) => {
        if ((input instanceof Request ? input.url : String(input)).endsWith('/oauth2/token/')) tokenRequests++;
        return fetch(input, init);
      },
    });
    await assert.rejects(client.authedFetch.get('x'), { code: ErrorCode.TOKEN_REQUEST_REJECTED });
    assert.equal(tokenRequests, 1);
  });

  test('a second 401 is an UNAUTHORIZED error, not a loop', async () => {
    h.sandbox.store.reset();
    const client = h.client();
    // A predict-scoped token sent to the slicing service is refused every time.
    const scope = `service_id=${h.sandbox.env.SLICER_PREDICT_SERVICE_ID}` as const;
    await assert.rejects(client.authedFetch(`${h.sandbox.env.SLICER_BASE_URL}/x`, { scope }), { code: ErrorCode.UNAUTHORIZED });
    assert.equal(h.issued(h.sandbox.env.SLICER_PREDICT_SERVICE_ID), 2, 'one fresh token, then stop');
  });

  test('a missing base URL for a relative path is a configuration error', async () => {
    const client = h.client({ env: { ...h.sandbox.env, SLICER_PREDICT_BASE_URL: undefined } });
    assert.throws(() => client.authedFetch('x', { scope: 'predict' }), (error: unknown) => {
      assert.ok(isAuthError(error) && error.code === ErrorCode.CONFIG_INVALID);
      assert.match(error.message, /SLICER_PREDICT_BASE_URL/);
      return true;
    });
  });
});

describe('a service answering 403 or slowly', () => {
  let server: Listening;
  /** Requests that reached /forbidden in the current test. */
  let seen = 0;
  beforeEach(() => {
    seen = 0;
  });
  before(async () => {
    const app = new Hono();
    app.all('/forbidden', (c) => {
      seen++;
      return c.json({ status: 'access_error', reason: 'forbidden' }, 403);
    });
    app.all('/slow', () => new Promise<Response>(() => {})); // never answers: any timeout ends it, however loaded the machine
    app.all('/boom', (c) => c.json({ status: 'internal_error' }, 500));
    server = await listen(app.fetch);
  });
  after(() => server.close());

  test('a 403 is not a reason to refresh', async () => {
    const client = h.client({ baseUrl: server.origin });
    await assert.rejects(
      client.authedFetch.post('forbidden'),
      (error: unknown) => error instanceof HTTPError && error.response.status === 403,
    );
    assert.equal(seen, 1);
    assert.equal(h.issued(), 1);
  });

  test('errors from the service path hold no token', async () => {
    const client = h.client({ baseUrl: server.origin });
    const token = await client.getToken();
    const { inspect } = await import('node:util');
    for (
      const call of [
        () => client.authedFetch('slow', { timeout: 50, retry: 0 }), // ky's TimeoutError keeps its request
        () => client.authedFetch('forbidden'), // the same, with options made once
        () => client.authedFetch.post('boom'),
      ]
    ) {
      const error = await call().then(
        () => assert.fail('expected an error'),
        (e: unknown) => e,
      );
      const shown = inspect(error, { depth: Number.POSITIVE_INFINITY, showHidden: true }) + JSON.stringify(error);
      assert.ok(!shown.includes(token), 'the token leaked into the error');
    }
  });
});

describe("the client's margin and clock", () => {
  test('refreshMarginSeconds moves the refresh point: 900 s before the end, pulled earlier by 5 % of it here (random 0.5)', async () => {
    const events: AuthEvent[] = [];
    const client = h.client({ refreshMarginSeconds: 900, onEvent: (event) => events.push(event) });
    const first = await client.getToken();
    h.advance(3600 - 946);
    assert.equal(await client.getToken(), first);
    assert.equal(events.find((event) => event.type === 'token.refresh'), undefined, '946 s before the end: no refresh yet');
    h.advance(2);
    await client.getToken();
    const refresh = events.find((event) => event.type === 'token.refresh');
    assert.deepEqual(refresh?.type === 'token.refresh' && [refresh.reason, refresh.marginMs], ['margin', 945_000]);
  });

  test("getTokenInfo's times are on the wall clock of the client's clock option", async () => {
    const wall = Date.UTC(2026, 10, 29, 12);
    const client = h.client({ clock: { ...systemClock, wallNow: () => wall } }); // and the harness's monotonic `now`
    const times = async () => {
      const info = await client.getTokenInfo();
      return [info.source, info.obtainedAt?.toISOString(), info.expiresAt?.toISOString()];
    };
    assert.deepEqual(await times(), ['request', '2026-11-29T12:00:00.000Z', '2026-11-29T13:00:00.000Z']);
    h.advance(600);
    // The wall clock stood still while 600 s passed: the token was obtained 600 s before it.
    assert.deepEqual(await times(), ['memory', '2026-11-29T11:50:00.000Z', '2026-11-29T12:50:00.000Z']);
  });
});

test("a closed client refuses each call by its own name; invalidating a permanent token's scope forgets nothing", async () => {
  const permanent = h.client({ staticToken: 'a-permanent-token', username: '', password: '' });
  await permanent.invalidate('slicer');
  assert.equal(await permanent.getToken(), 'a-permanent-token');
  const client = h.client();
  await client.close();
  await assert.rejects(client.getToken(), /^ClientClosedError: Cannot call getToken: this client was closed/);
  await assert.rejects(client.getTokenInfo(), /^ClientClosedError: Cannot call getTokenInfo: this client was closed/);
  await assert.rejects(client.invalidate(), /^ClientClosedError: Cannot call invalidate: this client was closed/);
});

/**
 * What the client hands the layers it wires: its clock's wall time to the pause after a failure (a `Retry-After` date)
 * and to the file store (which drops what has ended), and, without a logger, the console with the module's name.
 */
describe('the wiring', () => {
  /** A wall clock stopped at noon, 1 January 2030 (UTC). */
  const WALL = Date.UTC(2030, 0, 1, 12);
  const stopped = { ...systemClock, wallNow: () => WALL };

  test("a Retry-After date is read on the client's wall clock: the failure is given again, without a request, until then", async () => {
    const retryAfter = new Date(WALL + 300_000).toUTCString();
    h.sandbox.store.addFault({ status: 503, body: '{}', headers: { 'retry-after': retryAfter }, times: 1 });
    const client = h.client({ clock: stopped, tokenRetries: 0 });
    await assert.rejects(client.getToken(), { code: 'TOKEN_ENDPOINT_UNAVAILABLE' });
    h.advance(299);
    await assert.rejects(client.getToken(), { code: 'TOKEN_ENDPOINT_UNAVAILABLE' });
    assert.deepEqual(h.warnings, [
      `The last token request for scope "service_id=${h.sandbox.env.SLICER_SERVICE_ID}" failed (TOKEN_ENDPOINT_UNAVAILABLE); ` +
      'giving that failure again for 1 s without a new request',
    ]);
    h.advance(1);
    assert.equal((await client.getTokenInfo()).source, 'request');
  });

  test("a token endpoint's words are cleaned of every secret of the client, not the password alone", async () => {
    const said = JSON.stringify({ error: 'invalid_request', error_description: 'not with perm-T0KEN or st0re-KEY' });
    h.sandbox.store.addFault({ status: 400, body: said, times: 1 });
    const client = h.client({ predictStaticToken: 'perm-T0KEN', storeKey: 'st0re-KEY' });
    await assert.rejects(client.getToken(), {
      code: 'TOKEN_REQUEST_REJECTED',
      message: `Cannot get a token for scope "service_id=${h.sandbox.env.SLICER_SERVICE_ID}": the token endpoint answered 400 ` +
        'invalid_request: not with [redacted] or [redacted]',
    });
  });

  test("a cache file keeps every token still valid on the writer's wall clock, and drops those that have ended", async () => {
    const file = join(scratchDir('wiring-'), 'tokens.json');
    const source = (client: ReturnType<Harness['client']>, scope: 'slicer' | 'predict') =>
      client.getTokenInfo(scope).then((info) => info.source);
    assert.equal(await source(h.client({ cacheFile: file }), 'slicer'), 'request');
    assert.equal(await source(h.client({ cacheFile: file }), 'predict'), 'request');
    assert.equal(await source(h.client({ cacheFile: file }), 'slicer'), 'file', "the predict token's write kept the slicer token");
    // Two hours on, by this client's wall clock: both tokens have ended. Its write keeps only its own new token.
    assert.equal(
      await source(h.client({ cacheFile: file, clock: { ...systemClock, wallNow: () => systemClock.wallNow() + 7_200_000 } }), 'slicer'),
      'request',
    );
    assert.equal(await source(h.client({ cacheFile: file }), 'predict'), 'request', 'the ended predict token was dropped');
  });

  test('without a logger, lines go to the console with the module name: warnings to console.warn, the rest to standard error', async (t) => {
    const error = t.mock.method(console, 'error', () => undefined);
    const warn = t.mock.method(console, 'warn', () => undefined);
    const client = h.client({ logger: undefined, logLevel: 'debug', allowedOrigins: undefined });
    await client.getToken();
    // The slicing service's token, sent to the prediction service (the same origin): refused, and refused again.
    assert.equal((await client.tokenFetch(`${h.sandbox.env.SLICER_PREDICT_BASE_URL}/x`, { scope: 'slicer' })).status, 401);
    await client.authedFetch('http://127.0.0.1:9/elsewhere').catch(() => undefined);
    const scope = `service_id=${h.sandbox.env.SLICER_SERVICE_ID}`;
    const request = `[slicer-auth] Token request for scope "${scope}": ok (200) in N ms`;
    assert.deepEqual(error.mock.calls.map((call) => String(call.arguments[0]).replace(/ in \d+ ms$/, ' in N ms')), [
      request,
      `[slicer-auth] Token for scope "${scope}" from memory`,
      `[slicer-auth] A service answered 401 for scope "${scope}"; retrying once with a new token`,
      request,
      `[slicer-auth] A service answered 401 for scope "${scope}" again; giving up`,
    ]);
    assert.equal(warn.mock.callCount(), 1);
    assert.match(String(warn.mock.calls[0]?.arguments[0]), /^\[slicer-auth\] Sent GET http:\/\/127\.0\.0\.1:9 without the token/);
  });
});
