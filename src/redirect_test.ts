/**
 * Redirects from a service, counted at the service: each hop is sent once,
 * from the answer before (never by sending the original again), for
 * `tokenFetch` and `authedFetch`, with the token ready and with one still to
 * fetch, bodiless and with a body, same-origin and cross-origin; and the rules
 * of each hop (method, body, HEAD, the hop limit, what counts as a redirect,
 * the caller's redirect mode).
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { Hono } from 'hono';
import type { AuthClient } from './client.ts';
import { MAX_REDIRECTS } from './request/request_wire.ts';
import { listen, type Listening } from './sandbox/serve.ts';
import { type Harness, startHarness } from './testing/sandbox_harness.ts';

let h: Harness;
let service: Listening;
let elsewhere: Listening;
/** Every request that reached the service, as `METHOD /path`. */
const hits: string[] = [];
/** Every request that reached the other origin. */
const stolen: string[] = [];

before(async () => {
  h = await startHarness();
  const app = new Hono();
  app.use(async (c, next) => {
    hits.push(`${c.req.method} ${c.req.path}`);
    await next();
  });
  app.all('/r/same', (c) => c.redirect('/r/land', 302));
  app.all('/r/see-other', (c) => c.redirect('/r/land', 303));
  app.all('/r/temporary', (c) => c.redirect('/r/land', 307));
  app.all('/r/permanent', (c) => c.redirect('/r/land', 308));
  app.all('/r/away', (c) => c.redirect(`${elsewhere.origin}/land`, 302));
  app.all('/r/loop', (c) => c.redirect('/r/loop', 302));
  app.all('/r/created', (c) => c.json({ created: true }, 201, { location: '/r/land' }));
  app.all(
    '/r/land',
    async (c) => c.json({ method: c.req.method, authorization: c.req.header('authorization') ?? null, body: await c.req.text() }),
  );
  service = await listen(app.fetch);
  const other = new Hono();
  other.all('*', (c) => {
    stolen.push(`${c.req.method} ${c.req.path} ${c.req.header('authorization') ?? ''}`);
    return c.text('other origin');
  });
  elsewhere = await listen(other.fetch);
});
after(async () => {
  await service.close();
  await elsewhere.close();
  await h.close();
});
beforeEach(() => {
  h.sandbox.store.reset();
  hits.length = 0;
  stolen.length = 0;
});

/** What a call answered: its status and, for a JSON answer, its fields. */
interface Answer {
  readonly status: number;
  readonly json: { method?: string; authorization?: string | null; body?: string } | undefined;
}

/** The two clients, sending the same request. */
const CLIENTS: Record<string, (client: AuthClient, path: string, init?: RequestInit) => Promise<Answer>> = {
  tokenFetch: async (client, path, init) => {
    const response = await client.tokenFetch(path, init);
    return { status: response.status, json: (await response.json().catch(() => undefined)) as Answer['json'] };
  },
  authedFetch: async (client, path, init) => {
    const { body, ...rest } = init ?? {};
    const response = await client.authedFetch(path, {
      ...rest,
      ...(body ? { body: body as BodyInit } : {}),
      throwHttpErrors: false,
      retry: 0,
    });
    return { status: response.status, json: await response.json<Answer['json']>().catch(() => undefined) };
  },
};

/** Clients whose token is ready (a permanent token), or still to fetch (a temporary one, cold). */
const TOKENS: Record<string, () => AuthClient> = {
  'a ready token': () => h.client({ baseUrl: `${service.origin}/r`, staticToken: 'permanent-token', username: '', password: '' }),
  'a token still to fetch': () => h.client({ baseUrl: `${service.origin}/r` }),
};

const json = { method: 'POST', body: '{"part":1}', headers: { 'content-type': 'application/json' } };

for (const [name, send] of Object.entries(CLIENTS)) {
  for (const [tokenState, client] of Object.entries(TOKENS)) {
    describe(`${name} with ${tokenState}: each hop is sent once`, () => {
      test('a bodiless GET answered 302 on the same origin: the original once, then the target, with the token', async () => {
        const answer = await send(client(), 'same');
        assert.deepEqual(hits, ['GET /r/same', 'GET /r/land']);
        assert.equal(answer.json?.method, 'GET');
        assert.match(answer.json?.authorization ?? '', /^Bearer /);
      });
      test('a JSON POST answered 307: the original once, then the same method and body at the target', async () => {
        const answer = await send(client(), 'temporary', json);
        assert.deepEqual(hits, ['POST /r/temporary', 'POST /r/land']);
        assert.deepEqual([answer.json?.method, answer.json?.body], ['POST', '{"part":1}']);
      });
      test('a JSON POST answered 308 replays its body once at the target', async () => {
        const answer = await send(client(), 'permanent', json);
        assert.deepEqual(hits, ['POST /r/permanent', 'POST /r/land']);
        assert.equal(answer.json?.body, '{"part":1}');
      });
      test('a POST answered 302 or 303 becomes a bodiless GET', async () => {
        for (const path of ['same', 'see-other']) {
          hits.length = 0;
          const answer = await send(client(), path, json);
          assert.deepEqual(hits, [`POST /r/${path}`, 'GET /r/land']);
          assert.deepEqual([answer.json?.method, answer.json?.body], ['GET', '']);
        }
      });
      test('a GET and a POST answered with a redirect to another origin: sent once, handed back, nothing reaches that origin', async () => {
        assert.equal((await send(client(), 'away')).status, 302);
        assert.equal((await send(client(), 'away', json)).status, 302);
        assert.deepEqual(hits, ['GET /r/away', 'POST /r/away']);
        assert.deepEqual(stolen, []);
      });
    });
  }
}

describe('the rules of a hop', () => {
  test(`a redirect loop ends after ${MAX_REDIRECTS} hops: the last redirect is handed back`, async () => {
    for (const send of Object.values(CLIENTS)) {
      hits.length = 0;
      assert.equal((await send(TOKENS['a ready token']!(), 'loop')).status, 302);
      assert.equal(hits.length, MAX_REDIRECTS + 1, hits.join(', '));
    }
  });
  test('a HEAD stays a HEAD after a 302', async () => {
    for (const send of Object.values(CLIENTS)) {
      hits.length = 0;
      assert.equal((await send(TOKENS['a ready token']!(), 'same', { method: 'HEAD' })).status, 200);
      assert.deepEqual(hits, ['HEAD /r/same', 'HEAD /r/land']);
    }
  });
  test("the caller's redirect mode is kept: 'manual' hands a same-origin redirect back, 'error' fails as fetch does", async () => {
    for (const [name, send] of Object.entries(CLIENTS)) {
      for (const [tokenState, client] of Object.entries(TOKENS)) {
        const at = `${name} with ${tokenState}`;
        hits.length = 0;
        assert.equal((await send(client(), 'same', { redirect: 'manual' })).status, 302, at);
        await assert.rejects(send(client(), 'temporary', { ...json, redirect: 'error' }), TypeError, at);
        assert.equal((await send(client(), 'land', { redirect: 'error' })).json?.method, 'GET', `${at}: no redirect, no error`);
        assert.equal((await send(client(), 'same', { redirect: 'follow' })).json?.method, 'GET', at);
        assert.deepEqual(hits, ['GET /r/same', 'POST /r/temporary', 'GET /r/land', 'GET /r/same', 'GET /r/land'], at);
      }
    }
  });
  test('an answer that is not a redirect is not followed, whatever its Location', async () => {
    for (const send of Object.values(CLIENTS)) {
      hits.length = 0;
      const answer = await send(TOKENS['a ready token']!(), 'created', json);
      assert.equal(answer.status, 201);
      assert.deepEqual(hits, ['POST /r/created']);
    }
  });
});
