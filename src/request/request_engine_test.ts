/**
 * The request engine's own promises, each against real loopback servers: the
 * scope a URL belongs to, a lane per scope and URL kind, bodies sent again
 * after a 401 (strings, streams, bytes), the post transport for every form
 * body, a permanent token's refusal, the one retry's error, the caller's
 * signal, and the token fetched outside ky's timeout.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { Hono } from 'hono';
import { ErrorCode, isAuthError } from '../errors.ts';
import type { AuthEvent } from '../events.ts';
import { listen, type Listening } from '../sandbox/serve.ts';
import { type Harness, startHarness } from '../testing/sandbox_harness.ts';

let h: Harness;
let service: Listening;
/** What reached the recording service: method, path, token, body. */
const seen: { method: string; path: string; authorization: string | null; body: string }[] = [];
/** Tokens the service refuses, as a service refuses one it no longer knows. */
const refusedTokens = new Set<string>();
/** Whether the service refuses every token, as one that does not take this authorization service's tokens. */
let refuseEvery = false;

before(async () => {
  h = await startHarness();
  const app = new Hono();
  app.all('*', async (c) => {
    const authorization = c.req.header('authorization') ?? null;
    const body = await c.req.text();
    seen.push({ method: c.req.method, path: c.req.path, authorization, body });
    const token = authorization?.replace(/^Bearer /, '') ?? new URLSearchParams(body).get('token') ?? '';
    if (refusedTokens.has(token) || refuseEvery) return c.body(null, 401); // a 401 without a body
    return c.json({ path: c.req.path, method: c.req.method, body, via: authorization ? 'header' : 'post' });
  });
  service = await listen(app.fetch);
});
after(async () => {
  await service.close();
  await h.close();
});
beforeEach(() => {
  h.sandbox.store.reset();
  seen.length = 0;
  refusedTokens.clear();
  refuseEvery = false;
});

const client = (options: Parameters<Harness['client']>[0] = {}) => h.client({ baseUrl: `${service.origin}/api`, ...options });
/** A client whose prediction service has no base URL, and the recording service's origin listed for its token. */
const withoutPredictBase = () => {
  const { SLICER_PREDICT_BASE_URL: _, ...env } = h.sandbox.env;
  return client({ env, allowedOrigins: service.origin });
};

describe('the scope of a URL', () => {
  test('the service whose base URL it is under, the longest first, dot segments resolved; the base URL itself; else the first service of its origin', async () => {
    const events: AuthEvent[] = [];
    const c = client({ predictBaseUrl: `${service.origin}/api/predict`, onEvent: (e) => events.push(e) });
    const scopes = async (url: string) => {
      events.length = 0;
      await c.tokenFetch(url);
      return events.find((e) => e.type === 'token.request' || e.type === 'token.cached')?.scope;
    };
    const predict = `service_id=${h.sandbox.env.SLICER_PREDICT_SERVICE_ID}`;
    const slicer = `service_id=${h.sandbox.env.SLICER_SERVICE_ID}`;
    assert.equal(await scopes(`${service.origin}/api/predict/run`), predict, 'under the longer base URL');
    assert.equal(await scopes(`${service.origin}/api/jobs`), slicer);
    assert.equal(await scopes(`${service.origin}/api/predict`), predict, 'the base URL itself');
    // The URL sent, its dot segments resolved as fetch resolves them (also written %2e, or after a backslash).
    assert.equal(await scopes(`${service.origin}/api/predict/../jobs`), slicer, 'resolved: under the slicing base URL');
    assert.equal(await scopes(`${service.origin}/api/jobs/%2E%2e/predict/run`), predict, 'resolved: under the longer one');
    assert.equal(await scopes(`${service.origin}/api/predict\\..\\x`), slicer, 'a backslash is a slash in an http URL');
    assert.deepEqual(seen.slice(-3).map((s) => s.path), ['/api/jobs', '/api/predict/run', '/api/x']);
    // Under neither base URL, on the origin both share: the default service, not the one with the longer base URL.
    assert.equal(await scopes(`${service.origin}/elsewhere`), slicer, 'an origin both share: the default service');
    const other = client({ predictBaseUrl: `${h.sandbox.env.SLICER_PREDICT_BASE_URL}`, onEvent: (e) => events.push(e) });
    events.length = 0;
    await other.tokenFetch(`${new URL(h.sandbox.env.SLICER_PREDICT_BASE_URL).origin}/elsewhere`);
    assert.equal(events.find((e) => e.type === 'token.request')?.scope, predict, 'not under a base URL: the service of its origin');
    // An origin of neither service (listed in allowedOrigins): the slicing service's scope, though the prediction
    // service's base URL is the longer one.
    const third = `http://localhost:${new URL(service.origin).port}`;
    const listed = client({ predictBaseUrl: `${service.origin}/api/predict`, allowedOrigins: third, onEvent: (e) => events.push(e) });
    events.length = 0;
    await listed.tokenFetch(`${third}/x`);
    assert.equal(events.find((e) => e.type === 'token.request')?.scope, slicer, 'an origin of no service: the default service');
    assert.match(seen.at(-1)?.authorization ?? '', /^Bearer /);
  });

  test('an absolute URL that does not parse fails as fetch fails on it: no token requested, nothing sent, no warning', async () => {
    const warnings: string[] = [];
    const c = client({ logger: { warn: (message) => warnings.push(message) } });
    for (const url of ['http://exa mple.com/x', `${service.origin}:1/api/./x`, 'http://[bad/../x', 'http://h:99999/%2e%2e/x']) {
      const plain = await fetch(url).then(() => 'sent', (e: Error) => `${e.name}: ${e.message}`);
      const ours = await c.tokenFetch(url).then(() => 'sent', (e: Error) => `${e.name}: ${e.message}`);
      assert.equal(ours, plain, url);
      assert.match(ours, /^TypeError: /, url);
    }
    assert.deepEqual([seen.length, h.issued(), warnings], [0, 0, []]);
  });

  test('an absolute URL with a scope whose base URL is not set is sent (the base URL is needed for relative paths only)', async () => {
    const c = withoutPredictBase();
    const response = await c.tokenFetch(`${service.origin}/x`, { scope: 'predict' });
    assert.equal(response.status, 200);
    assert.match(seen[0]?.authorization ?? '', /^Bearer /);
  });

  test("a relative path needs its scope's base URL, before and after an absolute call of that scope", async () => {
    const c = withoutPredictBase();
    const relative = async () => {
      const error = await (async () => c.tokenFetch('y', { scope: 'predict' }))().then(() => undefined, (e: unknown) => e);
      assert.ok(isAuthError(error) && error.code === ErrorCode.CONFIG_INVALID, String(error));
      assert.match(error.message, /SLICER_PREDICT_BASE_URL: missing: set it, or pass an absolute URL/);
    };
    await relative();
    assert.equal((await c.tokenFetch(`${service.origin}/x`, { scope: 'predict' })).status, 200);
    await relative();
    assert.deepEqual(seen.map((s) => s.path), ['/x']);
  });

  test('a relative path is one whatever colons follow its first slash (jobs/batch:run), for tokenFetch and authedFetch', async () => {
    const c = client();
    assert.equal((await c.tokenFetch('jobs/batch:run')).status, 200);
    assert.equal((await c.authedFetch('/jobs/x:1').json<{ path: string }>()).path, '/api/jobs/x:1');
    assert.deepEqual(seen.map((s) => s.path), ['/api/jobs/batch:run', '/api/jobs/x:1']);
  });

  test("a service id of no configured service: a temporary token of its scope, under the default service's base URL", async () => {
    const { SLICER_PREDICT_SERVICE_ID: predictId, SLICER_PREDICT_BASE_URL: _, ...env } = h.sandbox.env;
    const c = client({ env, staticToken: 'the-slicing-services-permanent-token' });
    assert.equal((await c.tokenFetch('jobs', { scope: `service_id=${predictId}` })).status, 200);
    assert.equal(seen[0]?.path, '/api/jobs');
    assert.match(seen[0]?.authorization ?? '', /^Bearer [\w-]{20,}$/);
    assert.notEqual(seen[0]?.authorization, 'Bearer the-slicing-services-permanent-token', "not the default service's permanent token");
    assert.deepEqual([h.issued(predictId), h.issued()], [1, 0], 'a token of the scope asked for, none of the default one');
  });

  test('absolute and relative calls of one scope each keep their way (a lane per URL kind)', async () => {
    const c = client();
    assert.equal((await c.tokenFetch(`${service.origin}/api/a`)).status, 200);
    assert.equal((await c.tokenFetch('b')).status, 200);
    assert.equal((await c.authedFetch('c').json<{ path: string }>()).path, '/api/c');
    assert.deepEqual(seen.map((s) => s.path), ['/api/a', '/api/b', '/api/c']);
  });
});

describe('bodies, sent again after a 401', () => {
  /** A client whose first token the service refuses: every call is answered after one retry. */
  async function refusingFirst(options: Parameters<Harness['client']>[0] = {}) {
    const c = client(options);
    refusedTokens.add(await c.getToken());
    return c;
  }

  test('a string, a stream and bytes without a content type reach the service whole, twice', async () => {
    const c = await refusingFirst();
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('streamed '));
        controller.enqueue(new TextEncoder().encode('body'));
        controller.close();
      },
    });
    /** Each call's token is refused once: the call is sent, refused, and sent again with a fresh token. */
    const refusedOnce = async (call: () => Promise<Response>) => (refusedTokens.add(await c.getToken()), call());
    const answers = [
      await refusedOnce(() => c.tokenFetch('s', { method: 'POST', body: 'plain text' })),
      await refusedOnce(() => c.tokenFetch('t', { method: 'POST', body: stream, duplex: 'half' } as RequestInit)),
      await refusedOnce(() => c.tokenFetch(new Request(`${service.origin}/api/u`, { method: 'PUT', body: new Uint8Array([104, 105]) }))),
    ];
    assert.deepEqual(answers.map((a) => a.status), [200, 200, 200]);
    assert.deepEqual(seen.map((s) => `${s.method} ${s.path} ${s.body}`), [
      'POST /api/s plain text',
      'POST /api/s plain text',
      'POST /api/t streamed body',
      'POST /api/t streamed body',
      'PUT /api/u hi',
      'PUT /api/u hi',
    ]);
  });

  test('a 401 without a body is retried too', async () => {
    const c = await refusingFirst();
    assert.equal((await c.tokenFetch('x')).status, 200);
    assert.equal(seen.length, 2);
  });

  test('the post transport puts the token in every form body: a string with its content type, URLSearchParams, FormData', async () => {
    const c = client({ transport: 'post' });
    const form = new FormData();
    form.set('a', '1');
    for (const body of ['a=1', new URLSearchParams({ a: '1' }), form]) {
      const headers = typeof body === 'string' ? { 'content-type': 'application/x-www-form-urlencoded' } : undefined;
      assert.equal(
        ((await (await c.tokenFetch('f', { method: 'POST', body, ...(headers ? { headers } : {}) })).json()) as { via: string }).via,
        'post',
      );
    }
    assert.ok(seen.every((s) => s.authorization === null && /token/.test(s.body)), JSON.stringify(seen));
  });

  test('the post transport finds a form body by its media type, whatever its parameters', async () => {
    const c = client({ transport: 'post' });
    const headers = { 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8' };
    await c.tokenFetch('f', { method: 'POST', body: 'a=1', headers });
    await c.tokenFetch(new Request(`${service.origin}/api/g`, { method: 'POST', body: 'a=1', headers }));
    assert.deepEqual(seen.map((s) => [s.authorization, new URLSearchParams(s.body).get('a'), new URLSearchParams(s.body).has('token')]), [
      [null, '1', true],
      [null, '1', true],
    ]);
  });

  test('the post transport sends a bodiless GET with the header, whatever content type it names (a default header, say)', async () => {
    const c = client({ transport: 'post' });
    const answer = await c.tokenFetch('f', { headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    assert.equal(answer.status, 200);
    assert.deepEqual(seen.map((s) => [s.method, /^Bearer /.test(s.authorization ?? ''), s.body]), [['GET', true, '']]);
  });

  test('the header transport sends form and multipart bodies byte for byte, not parsed and written again', async () => {
    const c = client();
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const multipart = { 'content-type': 'multipart/form-data; boundary=XyZ' };
    const parts = '--XyZ\r\nContent-Disposition: form-data; name="a"\r\n\r\n1 ~*\r\n--XyZ--\r\n';
    // Written again, '~' would become %7E and %20 a '+'; a multipart body would get a boundary of its own.
    await c.tokenFetch('f', { method: 'POST', body: 'q=a~b%20c', headers: form });
    await c.tokenFetch(new Request(`${service.origin}/api/g`, { method: 'POST', body: 'q=a~b%20c', headers: form }));
    await c.tokenFetch(new Request(`${service.origin}/api/h`, { method: 'POST', body: parts, headers: multipart }));
    assert.deepEqual(seen.map((s) => s.body), ['q=a~b%20c', 'q=a~b%20c', parts]);
    assert.ok(seen.every((s) => /^Bearer /.test(s.authorization ?? '')));
  });

  test('a HEAD request refused once is sent again (a HEAD answer has no body to cancel)', async () => {
    const c = await refusingFirst();
    assert.equal((await c.tokenFetch('x', { method: 'HEAD' })).status, 200);
    assert.deepEqual(seen.map((s) => s.method), ['HEAD', 'HEAD']);
  });

  test('the header transport leaves form bodies alone and sends the header', async () => {
    const c = client();
    const form = new FormData();
    form.set('a', '1');
    for (const body of [new URLSearchParams({ a: '1' }), form]) {
      assert.equal(((await (await c.tokenFetch('f', { method: 'POST', body })).json()) as { via: string }).via, 'header');
    }
    assert.ok(seen.every((s) => !s.body.includes('token')));
  });
});

describe('refusals', () => {
  test('a refused permanent token: tokenFetch returns the 401, authedFetch throws PERMANENT_TOKEN_REJECTED; no retry, one event each', async () => {
    const events: AuthEvent[] = [];
    const c = client({ staticToken: 'revoked-permanent', username: '', password: '', onEvent: (e) => events.push(e) });
    refusedTokens.add('revoked-permanent');
    assert.equal((await c.tokenFetch('x')).status, 401);
    const error = await c.authedFetch('x').then(() => undefined, (e: unknown) => e);
    assert.ok(isAuthError(error) && error.code === ErrorCode.PERMANENT_TOKEN_REJECTED, String(error));
    assert.match(error.message, /SLICER_STATIC_TOKEN was refused \(401\)/);
    assert.equal(seen.length, 2, 'each sent once');
    assert.deepEqual(events.filter((e) => e.type === 'token.unauthorized'), [
      { type: 'token.unauthorized', scope: `service_id=${h.sandbox.env.SLICER_SERVICE_ID}`, retried: false },
      { type: 'token.unauthorized', scope: `service_id=${h.sandbox.env.SLICER_SERVICE_ID}`, retried: false },
    ]);
  });

  test("a second 401: events say retried, then given up; ky's error names the method, path, scope and the settings to check", async () => {
    const events: AuthEvent[] = [];
    // Tokens for the prediction service, sent to the slicing service: every one is refused.
    const predict = h.sandbox.env.SLICER_PREDICT_SERVICE_ID;
    const c = h.client({ serviceId: predict, onEvent: (e) => events.push(e) });
    const error = await c.authedFetch.delete('z').then(() => undefined, (e: unknown) => e);
    assert.ok(isAuthError(error) && error.code === ErrorCode.UNAUTHORIZED, String(error));
    assert.equal(
      error.message,
      `DELETE /slicer/z was refused (401) with a freshly fetched token for scope "service_id=${predict}": ` +
        'check that SLICER_SERVICE_ID / SLICER_PREDICT_SERVICE_ID name this service',
    );
    assert.deepEqual(events.filter((e) => e.type === 'token.unauthorized').map((e) => e.type === 'token.unauthorized' && e.retried), [
      true,
      false,
    ]);
    assert.equal(h.issued(predict), 2, 'one fresh token, then stop');
  });

  test('after a fresh token was refused too, a 401 ends a request at once for a pause: 1 s, doubled for each such refusal in a row', async () => {
    const predict = h.sandbox.env.SLICER_PREDICT_SERVICE_ID; // its tokens, sent to the slicing service, are all refused
    const warned = h.warnings.length;
    const c = h.client({ serviceId: predict });
    const status = async () => (await c.tokenFetch('z')).status;
    assert.equal(await status(), 401);
    assert.equal(h.issued(predict), 2, 'the token, then a fresh one');
    for (let i = 0; i < 20; i++) assert.equal(await status(), 401);
    assert.equal((await c.tokenFetch(`${h.sandbox.env.SLICER_BASE_URL}/z`)).status, 401, 'an absolute URL: the same scope, paused too');
    const error = await c.authedFetch('z').then(() => undefined, (e: unknown) => e);
    assert.ok(isAuthError(error) && error.code === ErrorCode.UNAUTHORIZED, String(error));
    assert.match(error.message, /^GET \/slicer\/z was refused \(401\) with a freshly fetched token/);
    assert.equal(h.issued(predict), 2, 'no token request within the pause');
    assert.deepEqual(h.warnings.slice(warned), [
      `A freshly fetched token for scope "service_id=${predict}" was refused (401) too; ` +
      'for 1 s a 401 ends a request, without another token request',
    ]);
    h.advance(1);
    assert.equal(await status(), 401);
    assert.equal(h.issued(predict), 3, 'a fresh token once the pause ended');
    h.advance(1.999);
    assert.equal(await status(), 401);
    assert.equal(h.issued(predict), 3, 'the second pause is 2 s');
    h.advance(0.001);
    assert.equal(await status(), 401);
    assert.equal(h.issued(predict), 4);
  });

  test('an answer that is no 401, to the first try or to the retry, ends the doubling: the next pause is 1 s again', async () => {
    const c = client();
    /** Two refusals of a fresh token in a row (pauses of 1 s, then 2 s), and the clock past the second pause. */
    const twoRefusals = async () => {
      refuseEvery = true;
      assert.equal((await c.tokenFetch('a')).status, 401);
      h.advance(1);
      assert.equal((await c.tokenFetch('a')).status, 401);
      h.advance(2);
      refuseEvery = false;
    };
    /** After a refusal of a fresh token, whether the pause was 1 s: a fresh token is fetched 1 s later. */
    const pausesOneSecond = async () => {
      refuseEvery = true;
      assert.equal((await c.tokenFetch('a')).status, 401);
      const before = h.issued();
      h.advance(1);
      assert.equal((await c.tokenFetch('a')).status, 401);
      return h.issued() === before + 1;
    };
    await twoRefusals();
    assert.equal((await c.tokenFetch('a')).status, 200, 'the first try answered');
    assert.ok(await pausesOneSecond(), 'after an answer to the first try, the pause was 1 s, not 4 s');
    h.advance(2);
    refuseEvery = false;
    assert.equal((await c.tokenFetch('a')).status, 200, 'answered: the count starts again');
    await twoRefusals();
    refusedTokens.add(await c.getToken());
    assert.equal((await c.tokenFetch('a')).status, 200, 'the retry answered');
    assert.ok(await pausesOneSecond(), 'after an answer to the retry, the pause was 1 s, not 4 s');
  });

  test('an answer that is no 401 ends the pause at once: the next 401 is retried with a fresh token', async () => {
    const c = client();
    refuseEvery = true;
    assert.equal((await c.tokenFetch('a')).status, 401, 'a fresh token refused too: a pause of 1 s');
    refuseEvery = false;
    assert.equal((await c.tokenFetch('a')).status, 200, 'within the pause, an answer');
    refuseEvery = true;
    const before = h.issued();
    assert.equal((await c.tokenFetch('a')).status, 401);
    assert.equal(h.issued(), before + 1, 'still within the first second: retried with a fresh token');
  });

  test('a request to another origin goes without the token, and the warning names its method and origin, once', async () => {
    const warnings: string[] = [];
    const c = h.client({ logger: { warn: (m) => warnings.push(m) } });
    await c.tokenFetch(`${service.origin}/upload`, { method: 'post', body: 'x' });
    await c.tokenFetch(`${service.origin}/upload`);
    assert.equal(seen[0]?.authorization, null);
    assert.equal(warnings.length, 1);
    assert.match(
      warnings[0] ?? '',
      new RegExp(`^Sent POST ${service.origin.replace(/[.]/g, '\\.')} without the token of scope "service_id=`),
    );
    await c.tokenFetch(`${h.sandbox.env.SLICER_AUTH_URL.replace('127.0.0.1', 'localhost')}/other`);
    assert.match(warnings[1] ?? '', /^Sent GET http:\/\/localhost:\d+ without the token/);
  });
});

describe('waiting for a token', () => {
  test("the caller's signal ends tokenFetch's wait for a token at once, with its reason, in its options or its Request", async () => {
    for (const call of ['options', 'Request'] as const) {
      h.sandbox.store.addFault({ delayMs: 2000, times: 1 }); // the token request takes 2 s
      const c = client();
      const reason = new Error('caller gave up');
      const controller = new AbortController();
      const before = h.issued();
      const pending = call === 'options'
        ? c.tokenFetch('slow', { signal: controller.signal })
        : c.tokenFetch(new Request(`${service.origin}/api/slow`, { signal: controller.signal }));
      controller.abort(reason);
      assert.equal(await pending.then(() => 'answered', (e: unknown) => e), reason, call);
      assert.equal(h.issued(), before, `${call}: ended before the token came`);
      assert.deepEqual(seen, [], 'nothing was sent');
      await c.close();
    }
  });

  test("the caller's signal ends the wait for the fresh token after a 401", async () => {
    const reason = new Error('caller gave up');
    const controller = new AbortController();
    const c = client({
      onEvent: (e) => {
        if (e.type !== 'token.unauthorized') return;
        h.sandbox.store.addFault({ delayMs: 2000, times: 1 }); // the fresh token takes 2 s
        controller.abort(reason);
      },
    });
    refusedTokens.add(await c.getToken());
    const before = h.issued();
    assert.equal(await c.tokenFetch('x', { signal: controller.signal }).then(() => 'answered', (e: unknown) => e), reason);
    assert.equal(h.issued(), before, 'ended before the fresh token came');
    assert.equal(seen.length, 1, 'sent once, refused, not sent again');
    await c.close();
  });

  test("authedFetch waits for its token outside ky's timeout: a token taking longer than the timeout still serves the call", async () => {
    // The token takes 3 s; the call itself has 2 s, ample on a loaded machine for one request on loopback.
    h.sandbox.store.addFault({ delayMs: 3000, times: 1 });
    const c = client();
    const answer = await c.authedFetch('late', { timeout: 2000, retry: 0 }).json<{ path: string }>();
    assert.equal(answer.path, '/api/late');
  });

  test("a token replacing one that ended is waited for outside ky's timeout too, not only the first", async () => {
    const c = client();
    assert.equal((await c.authedFetch('early').json<{ path: string }>()).path, '/api/early');
    h.advance(3600); // the token has ended: the cache holds none, and the next call needs a token request
    h.sandbox.store.addFault({ delayMs: 3000, times: 1 });
    const answer = await c.authedFetch('late', { timeout: 2000, retry: 0 }).json<{ path: string }>();
    assert.equal(answer.path, '/api/late');
    assert.equal(h.issued(), 2);
  });

  test('a closed client refuses tokenFetch and authedFetch by name; tokenFetch with a rejected promise, as fetch fails', async () => {
    const c = client();
    await c.close();
    await assert.rejects(c.tokenFetch('x'), /Cannot call tokenFetch: this client was closed/);
    assert.throws(
      () => c.authedFetch('x'),
      /Cannot call authedFetch: this client was closed/,
      'authedFetch throws, as ky throws for what it refuses',
    );
  });
});
