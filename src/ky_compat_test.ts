/**
 * All of ky: `extend`, `create`, `stop`, a caller's `prefixUrl` and hooks, and
 * a client's ky defaults, each compared with plain ky on the same server. The
 * token (a permanent one here, so no token endpoint is involved) goes only to
 * the service's origin.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { Hono } from 'hono';
import ky, { type KyInstance } from 'ky';
import { type AuthClientOptions, createAuthClient } from './client.ts';
import type { AuthedFetch } from './request/authed_fetch.ts';
import { listen, type Listening } from './sandbox/serve.ts';

const TOKEN = 'a-permanent-token-for-ky';
let service: Listening;
let other: Listening;
let attempts = 0;
/** The methods of the requests the catch-all route answered. */
const methods: string[] = [];

/** What the service saw of a request. */
interface Seen {
  path: string;
  authorization: string | null;
  team: string | null;
  tag: string | null;
}

function echoApp(): Hono {
  const app = new Hono();
  app.get('/api/slow/*', () => new Promise<Response>(() => {})); // never answers: any timeout ends it, however loaded the machine
  app.all('/api/flaky/*', (c) => {
    attempts++;
    return c.json({ attempt: attempts }, 500);
  });
  app.all('*', (c) => {
    methods.push(c.req.method);
    return c.json(
      {
        path: c.req.path,
        authorization: c.req.header('authorization') ?? null,
        team: c.req.header('x-team') ?? null,
        tag: c.req.header('x-tag') ?? null,
      } satisfies Seen,
    );
  });
  return app;
}

before(async () => {
  service = await listen(echoApp().fetch);
  other = await listen(echoApp().fetch);
});
after(async () => {
  await service.close();
  await other.close();
});
beforeEach(() => {
  attempts = 0;
  methods.length = 0;
});

const base = () => `${service.origin}/api`;
const client = (options: AuthClientOptions = {}) =>
  createAuthClient({
    env: {},
    envFile: false,
    baseUrl: base(),
    serviceId: 's',
    staticToken: TOKEN,
    logger: { warn: () => undefined },
    ...options,
  });
/** Plain ky on the same base. */
const plain = (): KyInstance => ky.create({ prefixUrl: base() });
const bearer = `Bearer ${TOKEN}`;

/** Asks both, returning what the service saw of each. */
async function both(ours: AuthedFetch, theirs: KyInstance, path: string): Promise<[Seen, Seen]> {
  return [await ours(path).json<Seen>(), await theirs(path).json<Seen>()];
}

describe('authedFetch is all of ky', () => {
  test('extend merges headers like ky.extend and keeps the token; a function gets the parent defaults', async () => {
    const blue = client().authedFetch.extend({ headers: { 'x-team': 'blue' } });
    const [ours, theirs] = await both(blue, plain().extend({ headers: { 'x-team': 'blue' } }), 'jobs');
    assert.deepEqual(ours, { ...theirs, authorization: bearer });
    assert.deepEqual(theirs, { path: '/api/jobs', authorization: null, team: 'blue', tag: null });
    const tagged = blue.extend((parent) => ({ headers: { 'x-tag': String((parent.headers as Record<string, string>)['x-team']) } }));
    assert.deepEqual(await tagged('x').json<Seen>(), { path: '/api/x', authorization: bearer, team: 'blue', tag: 'blue' });
  });

  test('create starts from the client alone, like ky.create: the extended defaults are gone, the token stays', async () => {
    const blue = client().authedFetch.extend({ headers: { 'x-team': 'blue' } });
    const red = blue.create({ headers: { 'x-tag': 'red' } });
    const [ours, theirs] = await both(
      red,
      plain().extend({ headers: { 'x-team': 'blue' } }).create({ prefixUrl: base(), headers: { 'x-tag': 'red' } }),
      'jobs',
    );
    assert.deepEqual(ours, { ...theirs, authorization: bearer });
    assert.equal(ours.team, null);
  });

  test("a caller's prefixUrl composes: relative under the base URL, absolute as ky uses it; the token only on the service's origin", async () => {
    const fetcher = client().authedFetch;
    assert.deepEqual(await fetcher('jobs', { prefixUrl: 'v2' }).json<Seen>(), {
      ...(await ky('jobs', { prefixUrl: `${base()}/v2` }).json<Seen>()),
      authorization: bearer,
    });
    const sameOrigin = await fetcher('jobs', { prefixUrl: `${service.origin}/elsewhere` }).json<Seen>();
    assert.deepEqual(sameOrigin, {
      ...(await ky('jobs', { prefixUrl: `${service.origin}/elsewhere` }).json<Seen>()),
      authorization: bearer,
    });
    const foreign = await fetcher.extend({ prefixUrl: other.origin })('jobs').json<Seen>();
    assert.deepEqual(
      foreign,
      await ky('jobs', { prefixUrl: other.origin }).json<Seen>(),
      'another origin: exactly what ky sends, no token',
    );
  });

  test("a caller's hooks run as in ky, after the token is fetched; afterResponse sees the answer", async () => {
    const seen: number[] = [];
    const hooks = {
      beforeRequest: [(request: Request) => void request.headers.set('x-tag', 'hooked')],
      afterResponse: [(_request: Request, _options: unknown, response: Response) => void seen.push(response.status)],
    };
    const [ours, theirs] = await both(client().authedFetch.extend({ hooks }), plain().extend({ hooks }), 'hooks');
    assert.deepEqual(ours, { ...theirs, authorization: bearer });
    assert.equal(ours.tag, 'hooked');
    assert.deepEqual(seen, [200, 200]);
  });

  test("the method shortcuts send their method, as ky's do", async () => {
    const names = ['get', 'post', 'put', 'patch', 'delete', 'head'] as const;
    const fetcher = client().authedFetch;
    for (const name of names) await fetcher[name]('jobs');
    const ours = methods.splice(0);
    for (const name of names) await plain()[name]('jobs');
    assert.deepEqual(ours, methods);
    assert.deepEqual(ours, ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD']);
  });

  test("retry as a number is ky's limit, given on the call or as a default (ky's own delays: 0.3 s a retry)", async () => {
    const tries = async (call: Promise<unknown>) => {
      attempts = 0;
      await call.catch(() => undefined);
      return attempts;
    };
    const fetcher = client().authedFetch;
    assert.deepEqual(
      [await tries(fetcher('flaky/a', { retry: 1 })), await tries(fetcher.extend({ retry: 1 })('flaky/a'))],
      [await tries(plain()('flaky/a', { retry: 1 })), await tries(plain().extend({ retry: 1 })('flaky/a'))],
    );
    assert.equal(attempts, 2, 'one try and one retry');
    assert.equal(await tries(fetcher('flaky/a', { retry: 0 })), 1, 'no retry');
  });

  test("a call's own beforeRequest hooks run, and a function extends a client's authedFetch without defaults", async () => {
    const hooks = { beforeRequest: [(request: Request) => void request.headers.set('x-tag', 'this call')] };
    const [ours, theirs] = [await client().authedFetch('jobs', { hooks }).json<Seen>(), await plain()('jobs', { hooks }).json<Seen>()];
    assert.deepEqual(ours, { ...theirs, authorization: bearer });
    assert.equal(ours.tag, 'this call');
    const extended = client().authedFetch.extend((parent) => ({ headers: { 'x-tag': JSON.stringify(parent) } }));
    assert.deepEqual(await extended('jobs').json<Seen>(), { path: '/api/jobs', authorization: bearer, team: null, tag: '{}' });
  });

  test('stop from a beforeRetry hook stops the retries as in ky', async () => {
    const options = { retry: { limit: 3, statusCodes: [500], backoffLimit: 1 }, hooks: { beforeRetry: [(): typeof ky.stop => ky.stop] } };
    const outcome = async (call: Promise<unknown>) => call.then(() => 'resolved', (error: Error) => error.name);
    const fetcher = client().authedFetch;
    assert.equal(fetcher.stop, ky.stop);
    const ours = await outcome(fetcher('flaky/a', { ...options, hooks: { beforeRetry: [() => fetcher.stop] } }));
    const oursAttempts = attempts;
    attempts = 0;
    const theirs = await outcome(plain()('flaky/a', options));
    assert.equal(ours, theirs);
    assert.equal(oursAttempts, attempts);
    assert.equal(attempts, 1, 'stopped after the first attempt');
  });

  test('createAuthClient({ ky }) sets defaults for every call: headers, timeout, retry', async () => {
    const name = (call: Promise<unknown>) => call.then(() => 'resolved', (error: Error) => error.name);
    // The timeout alone, against a service that never answers: no answered request depends on it.
    const timed = { timeout: 100 };
    assert.equal(await name(client({ ky: timed }).authedFetch('slow/x')), await name(plain().extend(timed)('slow/x')));
    assert.equal(await name(client({ ky: timed }).authedFetch('slow/x')), 'TimeoutError');
    const defaults = { headers: { 'x-team': 'green' }, retry: { limit: 2, statusCodes: [500], backoffLimit: 1 } };
    const fetcher = client({ ky: defaults }).authedFetch;
    const theirs = plain().extend(defaults);
    const [ours, plainSeen] = await both(fetcher, theirs, 'jobs');
    assert.deepEqual(ours, { ...plainSeen, authorization: bearer });
    await name(fetcher('flaky/x'));
    const oursAttempts = attempts;
    attempts = 0;
    await name(theirs('flaky/x'));
    assert.deepEqual([oursAttempts, attempts], [3, 3], 'the retry default: one try and two retries each');
  });
});
