import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, mock, test } from 'node:test';
import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { Secret } from '../redact.ts';
import { createRedisStore } from './redis.ts';
import { type TokenStore, UntrustedEntryError } from './store.ts';
import { createFakeClock } from '../testing/fake_clock.ts';
import { freePort } from '../testing/processes.ts';
import { redisRequired, type RedisServer, startRedis } from '../testing/redis_server.ts';
import { type Harness, startHarness } from '../testing/sandbox_harness.ts';
import { LOCK_TTL_MS } from '../token_cache/shared_grants.ts';

let h: Harness;
let redis: RedisServer | undefined;
let inspect: Redis;
const predictId = () => h.sandbox.env.SLICER_PREDICT_SERVICE_ID;
const issuedAll = () => h.issued() + h.issued(predictId());

before(async () => {
  h = await startHarness();
  if (!redisRequired()) return; // each test then skips, saying why
  redis = await startRedis();
  inspect = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  inspect.on('error', () => {}); // while a test has Redis stopped, this client's reconnection fails by design
  await inspect.connect();
});
after(async () => {
  inspect?.disconnect();
  await redis?.stop();
  await h.close();
});
beforeEach(async () => {
  h.sandbox.store.reset();
  h.warnings.length = 0;
  if (redis) {
    redis.resume();
    await inspect.flushall().catch(() => undefined);
  }
});

const client = (options: Parameters<Harness['client']>[0] = {}) =>
  h.client({ storeUrl: redis?.url, now: () => performance.now(), ...options });

describe('Redis shared token store', () => {
  test('keys are hashed and namespaced, expire with the token, and hold neither the password nor (with a key) the token', async (t) => {
    if (!redis) return t.skip('redis-server is not installed (Debian: apt-get install -y redis-server)');
    const plain = await client().getToken();
    const keys = await inspect.keys('*');
    assert.equal(keys.length, 1);
    assert.match(keys[0] ?? '', /^slicer-auth:v2:token:[0-9a-f]{64}$/);
    assert.ok(!(keys[0] ?? '').includes(h.sandbox.env.SLICER_USERNAME));
    const ttl = await inspect.pttl(keys[0] ?? '');
    assert.ok(ttl > 3_500_000 && ttl <= 3_600_000, `expires with the token (${ttl} ms)`);
    const value = (await inspect.get(keys[0] ?? '')) ?? '';
    assert.ok(value.includes(plain), 'without a key the token is stored as it is (documented)');
    assert.ok(!value.includes(h.sandbox.env.SLICER_PASSWORD));

    await inspect.flushall();
    const sealed = await client({ storeKey: 'correct horse battery staple' }).getToken('predict');
    const stored = (await inspect.get((await inspect.keys('*'))[0] ?? '')) ?? '';
    assert.ok(!stored.includes(sealed) && !stored.includes(h.sandbox.env.SLICER_PASSWORD), 'encrypted at rest');
    assert.ok(!stored.includes(createHash('sha256').update(sealed).digest('hex')), 'no hash of the token beside it');
    assert.match(stored, /^s2\.[A-Za-z0-9_-]+$/, 'one sealed value and nothing else');
    const before = issuedAll();
    assert.equal(await client({ storeKey: 'correct horse battery staple' }).getToken('predict'), sealed, 'read back with the key');
    assert.equal(issuedAll(), before);
    const withoutKey = await client().getToken('predict');
    assert.notEqual(withoutKey, sealed, 'unreadable without the key: fetched directly');
    assert.ok(h.warnings.some((w) => /sealed with a key: set SLICER_STORE_KEY/.test(w)), h.warnings.join('\n'));
    await inspect.flushall();
    await client({ storeKey: 'correct horse battery staple' }).getToken('predict');
    await client({ storeKey: 'another key' }).getToken('predict');
    assert.ok(
      h.warnings.some((w) => /sealed with another SLICER_STORE_KEY, moved from another entry, or altered/.test(w)),
      h.warnings.join('\n'),
    );
  });

  test('a lock expires by itself: Redis holds it at most the lock TTL, so a holder that dies cannot block the fleet', async (t) => {
    if (!redis) return t.skip('redis-server is not installed (Debian: apt-get install -y redis-server)');
    const store = await createRedisStore({ url: redis.url });
    const release = await store.lock({ authUrl: 'https://auth.example', username: 'u', scope: 'service_id=s' }, LOCK_TTL_MS);
    assert.ok(release, 'taken');
    const [lockKey] = await inspect.keys('*:lock');
    const ttl = await inspect.pttl(lockKey ?? '');
    assert.ok(ttl > LOCK_TTL_MS - 5000 && ttl <= LOCK_TTL_MS, `expires by itself in ${ttl} ms`);
    await release();
    assert.deepEqual(await inspect.keys('*:lock'), [], 'released by its owner');
    await store.close?.();
  });

  test('waiting on a lock that stays taken is bounded on the client clock: one warning, one request', async (t) => {
    if (!redis) return t.skip('redis-server is not installed (Debian: apt-get install -y redis-server)');
    const first = client();
    await first.getToken(); // learn the key
    const key = (await inspect.keys('*'))[0] ?? '';
    await inspect.flushall();
    await inspect.set(`${key}:lock`, 'a-dead-holder', 'PX', 600_000); // a holder killed mid-request leaves this
    const clock = createFakeClock({ autoAdvance: true, start: Date.now() });
    const before = issuedAll();
    assert.ok(await client({ clock, now: clock.now }).getToken());
    assert.ok(clock.now() > 15_000 && clock.now() <= 15_100, `waited 15 s on the clock (${clock.now()} ms)`);
    assert.equal(issuedAll() - before, 1);
    assert.equal(h.warnings.filter((w) => /lock for scope .* stayed taken; fetching a token without it/.test(w)).length, 1);
  });

  test('Redis stopped, restarted and frozen: no call fails, one warning, back to Redis when it answers', async (t) => {
    if (!redis) return t.skip('redis-server is not installed (Debian: apt-get install -y redis-server)');
    const a = client();
    await a.getToken();
    await redis.stop();
    try {
      const b = client();
      assert.ok(await b.getToken(), 'Redis down: fetched directly');
      assert.ok(await client().getToken());
      // The store by its address (a URL without credentials hides nothing), and the cause.
      const down =
        `The shared token store ${redis.url} failed (ECONNREFUSED); fetching tokens directly until the shared token store answers again`;
      assert.deepEqual(h.warnings.filter((w) => /shared token store .* failed/.test(w)), [down, down], 'one warning per client');
    } finally {
      await redis.start(); // for the next tests, whatever this one found
    }
    const c = client();
    const fromC = await c.getToken();
    assert.equal(await client().getToken(), fromC, 'Redis answers again: the next client reads the stored token');
    redis.pause();
    try {
      const started = performance.now();
      assert.ok(await client().getToken(), 'Redis frozen: fetched directly after the command timeout');
      assert.ok(performance.now() - started < 10_000, 'bounded delay (a 500 ms command timeout, generous for a loaded machine)');
    } finally {
      redis.resume();
    }
  });

  test('a 401 invalidates the shared entry: the fleet moves to a new token with one request', async (t) => {
    if (!redis) return t.skip('redis-server is not installed (Debian: apt-get install -y redis-server)');
    const a = client();
    const b = client();
    const old = await a.getToken();
    assert.equal(await b.getToken(), old, 'shared');
    const record = h.sandbox.store.list(h.sandbox.env.SLICER_USERNAME, 'temporary')[0];
    h.sandbox.store.revoke(h.sandbox.env.SLICER_USERNAME, record?.id ?? '');
    const before = issuedAll();
    assert.equal((await b.authedFetch('jobs').json<{ status: string }>()).status, 'success');
    assert.equal((await a.authedFetch('jobs').json<{ status: string }>()).status, 'success');
    assert.equal((await client().authedFetch('jobs').json<{ status: string }>()).status, 'success');
    assert.equal(issuedAll() - before, 1, 'one new token for the whole fleet');
  });

  test('a password in the Redis URL never shows in a warning or an error', async (t) => {
    if (!redis) return t.skip('redis-server is not installed (Debian: apt-get install -y redis-server)');
    const url = `redis://:Url-Pa55word%2B@127.0.0.1:${await freePort()}/0`; // nothing listens: every command fails
    assert.ok(await client({ storeUrl: url }).getToken(), 'fetched directly');
    const shown = h.warnings.join('\n');
    assert.match(shown, /shared token store redis:\/\/127\.0\.0\.1:\d+\/0 failed \(ECONNREFUSED\)/);
    assert.ok(!shown.includes('Url-Pa55word') && !shown.includes('Url-Pa55word%2B'), shown);
  });
  test('Redis returning garbage: no call fails, one warning, the entry is not trusted', async (t) => {
    if (!redis) return t.skip('redis-server is not installed (Debian: apt-get install -y redis-server)');
    await client().getToken();
    const key = (await inspect.keys('*'))[0] ?? '';
    await inspect.set(key, 'not a slicer-auth entry at all');
    const before = issuedAll();
    assert.ok(await client().getToken(), 'fetched directly');
    assert.equal(issuedAll() - before, 1);
    assert.ok(h.warnings.some((w) => /shared token store .*not a slicer-auth/.test(w)), h.warnings.join('\n'));
  });

  describe('sealed entries (SLICER_STORE_KEY): only what this key sealed for this place is used', () => {
    const KEY = 'a passphrase for the fleet';
    /** The Redis key of a scope's entry, learnt from a first client. */
    async function entryKey(scope: 'slicer' | 'predict'): Promise<string> {
      await inspect.flushall();
      await client({ storeKey: KEY }).getToken(scope);
      const [key] = await inspect.keys('*:token:*');
      await inspect.flushall();
      return key ?? '';
    }
    /** A keyed client's token after a planted entry: fresh (one request), one warning, and the entry replaced by a sealed one. */
    async function refusesPlanted(key: string, planted: string, why: RegExp): Promise<void> {
      await inspect.set(key, planted, 'PX', 600_000);
      h.warnings.length = 0;
      const before = issuedAll();
      const token = await client({ storeKey: KEY }).getToken();
      assert.equal(issuedAll() - before, 1, 'a fresh token was fetched');
      assert.ok(!planted.includes(token), 'the planted token was not used');
      assert.equal(h.warnings.filter((w) => why.test(w)).length, 1, h.warnings.join('\n'));
      const now = (await inspect.get(key)) ?? '';
      assert.notEqual(now, planted, 'the planted entry was replaced');
      assert.equal(await client({ storeKey: KEY }).getToken(), token, 'the replacement is read back with the key');
    }

    test('a plain entry planted by a client without the key is ignored with one warning and replaced', async (t) => {
      if (!redis) return t.skip('redis-server is not installed (Debian: apt-get install -y redis-server)');
      const slicerKey = await entryKey('slicer');
      await client().getToken(); // a client without the key writes its token in clear
      const planted = (await inspect.get(slicerKey)) ?? '';
      assert.match(planted, /^p2\./, 'a plain entry');
      await refusesPlanted(slicerKey, planted, /not sealed with SLICER_STORE_KEY/);
    });

    test('a sealed entry moved from the predict key to the slicer key does not open: ignored, replaced', async (t) => {
      if (!redis) return t.skip('redis-server is not installed (Debian: apt-get install -y redis-server)');
      const slicerKey = await entryKey('slicer');
      const predictKey = await entryKey('predict');
      await client({ storeKey: KEY }).getToken('predict');
      const moved = (await inspect.get(predictKey)) ?? '';
      assert.match(moved, /^s2\./);
      await inspect.del(predictKey);
      await refusesPlanted(slicerKey, moved, /sealed with another SLICER_STORE_KEY, moved from another entry, or altered/);
    });

    test('a sealed entry with one byte flipped does not open: ignored, replaced', async (t) => {
      if (!redis) return t.skip('redis-server is not installed (Debian: apt-get install -y redis-server)');
      const slicerKey = await entryKey('slicer');
      await client({ storeKey: KEY }).getToken();
      const sealed = (await inspect.get(slicerKey)) ?? '';
      const at = 20; // inside the ciphertext
      const flipped = sealed.slice(0, at) + (sealed[at] === 'A' ? 'B' : 'A') + sealed.slice(at + 1);
      await inspect.flushall();
      await refusesPlanted(slicerKey, flipped, /sealed with another SLICER_STORE_KEY, moved from another entry, or altered/);
    });

    test('compare-and-delete of a sealed entry: the held token is forgotten, a newer one is kept', async (t) => {
      if (!redis) return t.skip('redis-server is not installed (Debian: apt-get install -y redis-server)');
      const a = client({ storeKey: KEY });
      const old = await a.getToken();
      await a.invalidate('slicer');
      assert.deepEqual(await inspect.keys('*:token:*'), [], 'the sealed entry of the held token was deleted');
      const b = client({ storeKey: KEY });
      const newer = await b.getToken();
      assert.notEqual(newer, old);
      const store = await createRedisStore({ url: redis.url, key: new Secret(KEY) });
      const key = {
        authUrl: h.sandbox.env.SLICER_AUTH_URL,
        username: h.sandbox.env.SLICER_USERNAME,
        scope: `service_id=${h.sandbox.env.SLICER_SERVICE_ID}`,
      };
      await store.deleteIfSame(key, old);
      assert.equal((await store.get(key))?.token, newer, 'a delete naming the old token keeps the newer one');
      await store.close?.();
    });
  });
});

const KEY = { authUrl: 'https://auth.example', username: 'u', scope: 'service_id=s' };

/** A store on the test's Redis, with a wall clock far from the real one. */
async function store(t: { skip(message: string): void }) {
  if (!redis) {
    t.skip('redis-server is not installed (Debian: apt-get install -y redis-server)');
    return undefined;
  }
  return createRedisStore({ url: redis.url, wallNow: () => 1_000_000 });
}

/** A grant that lives 60 s on the store clock (which stands at 1,000,000 ms). */
const GRANT = { token: 't', expiresAt: 1_060_000, lifetime: 60_000 };

/** Stores {@link GRANT} under {@link KEY} and returns its Redis key. */
async function stored(s: TokenStore): Promise<string> {
  await s.put(KEY, GRANT);
  const [key] = await inspect.keys('slicer-auth:v2:token:*');
  assert.ok(key);
  return key;
}

/** Sockets that keep the event loop alive. */
const referencedSockets = () => process.getActiveResourcesInfo().filter((r) => r === 'TCPSocketWrap').length;

describe('the Redis store in-process: lifetimes on its own clock, refused entries, an idle connection', () => {
  test('an entry lives in Redis until its token expires on the store clock; kind and description name Redis', async (t) => {
    const s = await store(t);
    if (!s) return;
    const key = await stored(s);
    const ttl = await inspect.pttl(key);
    assert.ok(ttl > 59_000 && ttl <= 60_000, `PTTL ${ttl}`);
    assert.equal(s.kind, 'redis');
    assert.equal(s.description, redis?.url.replace(/\/$/, ''));
    await s.close?.();
  });

  test('entries that are not slicer-auth tokens are refused, saying so', async (t) => {
    const s = await store(t);
    if (!s) return;
    const key = await stored(s);
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

  test('commands sent together to a store not yet connected share its first connection: none fails', async (t) => {
    const s = await store(t);
    if (!s) return;
    await s.put(KEY, GRANT);
    const fresh = await store(t);
    assert.ok(fresh);
    const [first, second, lock] = await Promise.all([fresh.get(KEY), fresh.get(KEY), fresh.lock(KEY, 1_000)]);
    assert.deepEqual([first, second], [GRANT, GRANT]);
    assert.equal(typeof lock, 'function', 'the lock was taken');
    await lock?.();
    await Promise.all([s.close?.(), fresh.close?.()]);
  });

  test('the connection is referenced while a command is out (a script awaiting it does not exit) and unreferenced after', async (t) => {
    const s = await store(t);
    if (!s) return;
    const before = referencedSockets();
    await s.put(KEY, GRANT);
    assert.equal(referencedSockets(), before, 'idle after connecting and the first command');
    const first = s.get(KEY);
    const second = s.get(KEY);
    assert.equal(referencedSockets(), before + 1, 'referenced while two commands are out');
    await first;
    await second;
    assert.equal(referencedSockets(), before);
    const waiting = s.get(KEY);
    // A command that fails before it leaves (its value cannot be written) must not unreference the one still out.
    const unwritable = { ...GRANT, lifetime: 1n } as unknown as Parameters<typeof s.put>[1];
    await assert.rejects(s.put(KEY, unwritable), /The shared token store .* failed \(Do not know how to serialize a BigInt\)/);
    assert.equal(referencedSockets(), before + 1, 'still referenced while the other command is out');
    await waiting;
    assert.equal(referencedSockets(), before);
    await s.close?.();
  });

  test('a store whose Redis went away fails its command quietly, connects again on the next one, and is idle after it', async (t) => {
    const s = await store(t);
    if (!s || !redis) return;
    await s.put(KEY, GRANT);
    await redis.stop();
    const printed = mock.method(console, 'error', () => {});
    try {
      await assert.rejects(s.get(KEY), (error: Error) => {
        // The error's code when it has one, else its message: which one depends on when ioredis saw the close (late on a
        // loaded machine: the socket is still open but no longer writable).
        const reasons = ['ECONNREFUSED', 'Connection is closed.', "Stream isn't writeable and enableOfflineQueue options is false"];
        assert.ok(
          reasons.map((reason) => `The shared token store ${s.description} failed (${reason})`).includes(error.message),
          error.message,
        );
        return true;
      });
      assert.equal(printed.mock.callCount(), 0, "ioredis's own 'Unhandled error event' line is not printed");
    } finally {
      printed.mock.restore();
      await redis.start();
    }
    await inspect.ping(); // this file's own client reconnects too: counted once it has
    const before = referencedSockets();
    await s.put(KEY, GRANT);
    assert.deepEqual(await s.get(KEY), GRANT);
    assert.equal(referencedSockets(), before, 'the failed command left no count behind that would keep the socket referenced');
    await s.close?.();
  });

  test('a store that cannot connect names why: a refused connection, a wrong password, no password', async (t) => {
    if (!redis) return t.skip('redis-server is not installed (Debian: apt-get install -y redis-server)');
    const port = new URL(redis.url).port;
    await inspect.call('ACL', 'SETUSER', 'probe', 'on', '>right-password', '~*', '+@all');
    await inspect.call('ACL', 'SETUSER', 'default', 'off');
    try {
      const cases = [
        [`redis://127.0.0.1:${await freePort()}`, 'ECONNREFUSED'],
        [`redis://probe:wrong-password@127.0.0.1:${port}`, 'WRONGPASS invalid username-password pair or user is disabled.'],
        [`redis://127.0.0.1:${port}`, 'NOAUTH Authentication required.'],
      ] as const;
      for (const [url, reason] of cases) {
        const s = await createRedisStore({ url });
        // Twice: each connection made again names its own failure.
        for (const attempt of [1, 2]) {
          await assert.rejects(
            s.get(KEY),
            { message: `The shared token store ${s.description} failed (${reason})` },
            `${reason} ${attempt}`,
          );
        }
        await s.close?.();
      }
      const s = await createRedisStore({ url: `redis://probe:right-password@127.0.0.1:${port}` });
      await s.put(KEY, GRANT);
      assert.equal((await s.get(KEY))?.token, GRANT.token, 'the right password connects');
      await s.close?.();
    } finally {
      await inspect.call('ACL', 'SETUSER', 'default', 'on');
      await inspect.call('ACL', 'DELUSER', 'probe');
    }
  });

  test('forgetting a token leaves an entry that is not ours as it is', async (t) => {
    const s = await store(t);
    if (!s) return;
    const key = await stored(s);
    await inspect.set(key, 'p2.not json');
    await s.deleteIfSame(KEY, 't');
    assert.equal(await inspect.get(key), 'p2.not json');
    await s.close?.();
  });

  test('after each command the connection is unreferenced: an idle store never keeps the process alive', async (t) => {
    const s = await store(t);
    if (!s) return;
    const before = referencedSockets();
    await s.put(KEY, GRANT);
    assert.equal(referencedSockets(), before);
    await Promise.all([s.get(KEY), s.get(KEY), s.lock(KEY, 1_000)]);
    assert.equal(referencedSockets(), before);
    await s.close?.();
  });
});
