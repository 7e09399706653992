/**
 * Forgetting is global and closing is final: `invalidate` reaches every layer
 * (memory, file, Redis) in every process sharing the store, and `close()`
 * releases the store and refuses later calls.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import { ErrorCode, isAuthError } from './errors.ts';
import { createMemoryStore } from './stores/memory.ts';
import type { TokenStore } from './stores/store.ts';
import { converse } from './testing/processes.ts';
import { redisRequired, type RedisServer, startRedis } from './testing/redis_server.ts';
import { type Harness, startHarness } from './testing/sandbox_harness.ts';
import { scratchDir } from './testing/scratch.ts';

let h: Harness;
let redis: RedisServer | undefined;
before(async () => {
  h = await startHarness();
  if (redisRequired()) redis = await startRedis();
});
after(async () => {
  await redis?.stop();
  await h.close();
});
beforeEach(() => {
  h.sandbox.store.reset(); // every test starts from a fresh sandbox
  h.warnings.length = 0;
});

const closedError = (error: unknown) => isAuthError(error) && error.code === ErrorCode.CLIENT_CLOSED;

describe('invalidate forgets everywhere', () => {
  for (const kind of ['file', 'redis'] as const) {
    test(`two processes on one ${kind} store: after invalidate in one, both get a new token, with exactly one request`, async (t) => {
      if (kind === 'redis' && !redis) return t.skip('redis-server is not installed (Debian: apt-get install -y redis-server)');
      const store = kind === 'file'
        ? { SLICER_CACHE_FILE: join(scratchDir('invalidate-'), 'tokens.json') }
        : { SLICER_STORE_URL: redis?.url };
      const env = { PATH: process.env.PATH, HOME: process.env.HOME, SLICER_ENV_FILE: '/dev/null', ...h.sandbox.env, ...store };
      const a = converse('src/testing/command_worker.ts', env);
      const b = converse('src/testing/command_worker.ts', env);
      try {
        const first = await a.ask('get');
        assert.match(first, /^token [0-9a-f]{16}$/);
        assert.equal(await b.ask('get'), first, 'b reads the token a stored');
        assert.equal(h.issued(), 1);
        assert.equal(await a.ask('invalidate'), 'ok');
        const fromB = await b.ask('get');
        assert.notEqual(fromB, first, 'b no longer hands out the forgotten token');
        assert.equal(await a.ask('get'), fromB, 'a reads the new token b stored');
        assert.equal(h.issued(), 2, 'exactly one new token request');
      } finally {
        await Promise.all([a.ask('close'), b.ask('close')]);
        assert.deepEqual(await Promise.all([a.end(), b.end()]), [0, 0]);
      }
    });
  }

  test('a newer token another process stored is never dropped: the delete compares the token', async () => {
    const store = createMemoryStore();
    const a = h.client({ store });
    const b = h.client({ store });
    const old = await a.getToken();
    await b.invalidate(); // b holds nothing in memory: nothing is forgotten for "all scopes"
    assert.equal(await b.getToken(), old);
    await b.invalidate('slicer'); // forgets the stored token, old
    const fresh = await b.getToken();
    assert.notEqual(fresh, old);
    await a.invalidate('slicer'); // a's memory holds old: only old may be deleted, fresh stays
    assert.equal(await b.getToken(), fresh);
    assert.equal(await a.getToken(), fresh, 'a reads the newer token from the store');
    assert.equal(h.issued(), 2);
  });
});

describe('a store that keeps nothing', () => {
  test('costs two token requests, not one per call: a held token missing from the store twice in a row is kept', async () => {
    const store: TokenStore = { ...createMemoryStore(), description: 'forgetful', get: async () => undefined };
    const client = h.client({ store });
    for (let call = 0; call < 20; call++) assert.equal((await client.tokenFetch('jobs')).status, 200);
    await client.close();
    assert.equal(h.issued(), 2);
    assert.deepEqual(h.warnings, [
      `The shared token store forgetful keeps no token for scope "service_id=${h.sandbox.env.SLICER_SERVICE_ID}" (the one stored was gone at the next call); using tokens from memory until it keeps one`,
    ]);
  });
});

describe('close', () => {
  test('later calls fail with CLIENT_CLOSED; closing twice is fine; await using closes', async () => {
    let closes = 0;
    const store = { ...createMemoryStore(), close: async () => void closes++ };
    let kept;
    {
      await using client = h.client({ store });
      assert.ok(await client.getToken());
      kept = client;
    }
    assert.equal(closes, 1, 'the block closed the client and its store');
    await kept.close();
    assert.equal(closes, 1, 'a second close does nothing');
    await assert.rejects(kept.getToken(), closedError);
    await assert.rejects(kept.invalidate(), closedError);
    assert.throws(() => kept.authedFetch('jobs'), closedError);
  });

  test('close ends the Redis connection', async (t) => {
    if (!redis) return t.skip('redis-server is not installed (Debian: apt-get install -y redis-server)');
    const inspect = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await inspect.connect();
    const connections = async () => (String(await inspect.client('LIST')).match(/^id=/gm) ?? []).length;
    try {
      const client = h.client({ storeUrl: redis.url });
      await client.getToken();
      assert.equal(await connections(), 2, 'the client and this inspector');
      await client.close();
      const deadline = performance.now() + 5000;
      while ((await connections()) > 1 && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      assert.equal(await connections(), 1, 'only this inspector is left');
    } finally {
      inspect.disconnect();
    }
  });
});
