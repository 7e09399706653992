/**
 * The Redis store in-process against a real `redis-server`: entry lifetimes
 * on the store's own wall clock, what is refused as not ours, and an idle
 * connection that never keeps the process alive.
 */
import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import { after, before, beforeEach, describe, test } from 'node:test';
import { createRedisStore } from './redis.ts';
import { UntrustedEntryError } from './store.ts';
import { redisRequired, type RedisServer, startRedis } from '../testing/redis_server.ts';

const KEY = { authUrl: 'https://auth.example', username: 'u', scope: 'service_id=s' };
let redis: RedisServer | undefined;
let inspect: Redis;

before(async () => {
  if (!redisRequired()) return; // each test then skips, saying why
  redis = await startRedis();
  inspect = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await inspect.connect();
});
after(async () => {
  inspect?.disconnect();
  await redis?.stop();
});
beforeEach(async () => {
  await inspect?.flushall();
});

/** A store on the test's Redis, with a wall clock far from the real one. */
async function store(t: { skip(message: string): void }) {
  if (!redis) {
    t.skip('redis-server is not installed');
    return undefined;
  }
  return createRedisStore({ url: redis.url, wallNow: () => 1_000_000 });
}

/** Sockets that keep the event loop alive. */
const referencedSockets = () => process.getActiveResourcesInfo().filter((r) => r === 'TCPSocketWrap').length;

describe('Redis store', () => {
  test('an entry lives in Redis until its token expires on the store clock; kind and description name Redis', async (t) => {
    const s = await store(t);
    if (!s) return;
    await s.put(KEY, { token: 't', expiresAt: 1_060_000, lifetime: 60_000 });
    const [key] = await inspect.keys('slicer-auth:v2:token:*');
    assert.ok(key);
    const ttl = await inspect.pttl(key);
    assert.ok(ttl > 59_000 && ttl <= 60_000, `PTTL ${ttl}`);
    assert.equal(s.kind, 'redis');
    assert.equal(s.description, redis?.url.replace(/\/$/, ''));
    await s.close?.();
  });

  test('entries that are not slicer-auth tokens are refused, saying so', async (t) => {
    const s = await store(t);
    if (!s) return;
    await s.put(KEY, { token: 't', expiresAt: 1_060_000, lifetime: 60_000 });
    const [key] = await inspect.keys('slicer-auth:v2:token:*');
    assert.ok(key);
    const planted = [
      'xyz{"token":"t","expiresAt":2000000,"lifetime":1}',
      'p2.{"token":"t","expiresAt":"soon","lifetime":1}',
      'p2.{"token":"t","expiresAt":2000000}',
      'p2.not json',
    ];
    for (const value of planted) {
      await inspect.set(key, value);
      await assert.rejects(s.get(KEY), (error: unknown) => {
        assert.ok(error instanceof UntrustedEntryError, value);
        assert.equal(error.message, `The shared token store ${s.description} holds an entry that is not a slicer-auth token; ignoring it`);
        return true;
      });
    }
    await s.close?.();
  });

  test('after each command the connection is unreferenced: an idle store never keeps the process alive', async (t) => {
    const s = await store(t);
    if (!s) return;
    const before = referencedSockets();
    await s.put(KEY, { token: 't', expiresAt: 1_060_000, lifetime: 60_000 });
    assert.equal(referencedSockets(), before);
    await Promise.all([s.get(KEY), s.get(KEY), s.lock(KEY, 1_000)]);
    assert.equal(referencedSockets(), before);
    await s.close?.();
  });
});
