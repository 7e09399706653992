/**
 * The shared-store policy at its edges, on a fake clock: which stored token
 * is usable (to the millisecond of its hard margin), what a refresh never
 * reads back, what happens when the store fails at each step, the events and
 * warnings a user sees, and how `confirm` and `forget` use the store.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { AuthEvent } from '../events.ts';
import type { Grant } from '../grant.ts';
import { createSharedGrants } from './shared_grants.ts';
import { createMemoryStore } from '../stores/memory.ts';
import { type StoredGrant, type StoreKey, type TokenStore, UntrustedEntryError } from '../stores/store.ts';
import { createFakeClock } from '../testing/fake_clock.ts';

const SCOPE = 'service_id=s';
const KEY: StoreKey = { authUrl: 'https://auth.example', username: 'u', scope: SCOPE };
const HOUR = 3_600_000;
/** The hard margin of a one-hour token with the default 300 s margin, and the policy's extra second. */
const LAST_USABLE = 150_000 + 1_000;

type Operation = 'get' | 'put' | 'deleteIfSame' | 'lock';
const NOTHING = Symbol('nothing planted');

/**
 * Shared grants over a memory store that logs each operation, runs what
 * `before` holds for it first (another process's move), and fails the
 * operations named in `failing` (or only the `n`-th get, via `failNthGet`).
 */
function setup(kind?: TokenStore['kind']) {
  const clock = createFakeClock();
  const inner = createMemoryStore(clock.wallNow);
  const ops: Operation[] = [];
  const failing = new Set<Operation>();
  const before: Partial<Record<Operation, () => Promise<void>>> = {};
  let failGet = 0;
  let gets = 0;
  const logged = <A extends unknown[], R>(name: Operation, run: (...args: A) => Promise<R>) => async (...args: A) => {
    ops.push(name);
    await before[name]?.();
    if (name === 'get' && ++gets === failGet) throw new Error('the store timed out');
    if (failing.has(name)) throw new Error(`the store refused ${name}`);
    return run(...args);
  };
  let planted: unknown = NOTHING;
  const store: TokenStore = {
    description: 'memory',
    kind,
    get: logged('get', (key: StoreKey) => (planted === NOTHING ? inner.get(key) : Promise.resolve(planted as StoredGrant))),
    put: logged('put', inner.put),
    deleteIfSame: logged('deleteIfSame', inner.deleteIfSame),
    lock: logged('lock', inner.lock),
  };
  const warnings: string[] = [];
  const events: AuthEvent[] = [];
  let requests = 0;
  const shared = createSharedGrants(
    async (): Promise<Grant> => {
      requests++;
      return { token: `own-${requests}`, expiresAt: clock.now() + HOUR, lifetime: HOUR };
    },
    { store, authUrl: KEY.authUrl, username: KEY.username, clock, warn: (m) => warnings.push(m), emit: (e) => events.push(e) },
  );
  return {
    clock,
    inner,
    shared,
    ops,
    failing,
    before,
    failNthGet: (n: number) => void (failGet = n),
    warnings,
    events,
    requests: () => requests,
    /** Makes every get hand back this entry, whatever is stored (a store of the user's own, with its own ideas). */
    plant: (entry: unknown) => void (planted = entry),
    /** Stores a one-hour token with `left` ms to live. */
    stored: (token: string, left = HOUR) => inner.put(KEY, { token, expiresAt: clock.wallNow() + left, lifetime: HOUR }),
  };
}

const outage = (op: string) => `the store refused ${op}; fetching tokens directly until the shared token store answers again`;

describe('shared grants edges', () => {
  test('a stored token is usable while more than its hard margin and one second remain, to the millisecond', async () => {
    const s = setup();
    await s.stored('edge', LAST_USABLE);
    assert.equal((await s.shared.fetchGrant(SCOPE)).token, 'own-1', 'exactly at the edge: a new token');
    const t = setup();
    await t.stored('edge', LAST_USABLE + 1);
    const grant = await t.shared.fetchGrant(SCOPE);
    assert.deepEqual(grant, { token: 'edge', expiresAt: LAST_USABLE + 1, lifetime: HOUR, source: 'store' });
    assert.equal(t.requests(), 0);
  });

  test('a fresh stored token is read without taking the lock, reported once, by the kind of store', async () => {
    for (const kind of ['file', 'redis', undefined] as const) {
      const s = setup(kind);
      await s.stored('shared');
      assert.equal((await s.shared.fetchGrant(SCOPE)).source, kind ?? 'store');
      assert.deepEqual(s.ops, ['get']);
      assert.deepEqual(s.events, [{ type: 'token.cached', scope: SCOPE, layer: kind ?? 'store' }]);
    }
  });

  test('a cold fetch with the lock free takes it, looks again, fetches, stores and releases, with no lock.wait event', async () => {
    const s = setup();
    assert.equal((await s.shared.fetchGrant(SCOPE)).token, 'own-1');
    assert.deepEqual(s.ops, ['get', 'lock', 'get', 'put']);
    assert.deepEqual(s.events, []);
    assert.equal((await s.inner.get(KEY))?.token, 'own-1');
    assert.ok(await s.inner.lock(KEY, 1), 'the lock was released');
  });

  test('the token stored for the others expires when it does, mapped from the monotonic clock onto the wall clock', async () => {
    const s = setup();
    s.clock.advance(5_000);
    await s.shared.fetchGrant(SCOPE);
    assert.equal((await s.inner.get(KEY))?.expiresAt, s.clock.wallNow() + HOUR);
  });

  test('an entry the store distrusts reads as missing with its own warning only, and the next token replaces it', async () => {
    const s = setup();
    await s.stored('planted');
    s.before.get = async () => {
      if ((await s.inner.get(KEY))?.token === 'planted') throw new UntrustedEntryError('the entry is not sealed');
    };
    assert.equal((await s.shared.fetchGrant(SCOPE)).token, 'own-1');
    assert.deepEqual(s.warnings, ['the entry is not sealed']);
    assert.equal((await s.inner.get(KEY))?.token, 'own-1', 'replaced');
  });

  test('an entry that is no usable token reads as missing: one warning naming the field, never the value, and replaced', async () => {
    const token = 'Q7secret';
    const cases: [unknown, string][] = [
      [{ token: 'Q7\nsecret', expiresAt: HOUR, lifetime: HOUR }, 'token must be a token an HTTP header can carry'],
      [{ token: 7, expiresAt: HOUR, lifetime: HOUR }, 'token must be a string'],
      [{ token: '', expiresAt: HOUR, lifetime: HOUR }, 'token must not be empty'],
      [{ token, expiresAt: String(HOUR), lifetime: HOUR }, 'expiresAt must be a number'],
      [{ token, expiresAt: Infinity, lifetime: HOUR }, 'expiresAt must be finite'],
      [{ token, expiresAt: HOUR }, 'lifetime is missing'],
      [{ token, expiresAt: HOUR, lifetime: String(HOUR) }, 'lifetime must be a number'],
      [{ token, expiresAt: HOUR, lifetime: Infinity }, 'lifetime must be finite'],
      [{ token, expiresAt: HOUR, lifetime: 999 }, 'lifetime must be at least 1000 ms'],
      [token, 'entry must be an object'],
    ];
    for (const [entry, problem] of cases) {
      const s = setup();
      s.plant(entry);
      assert.equal((await s.shared.fetchGrant(SCOPE)).token, 'own-1', problem);
      assert.deepEqual(s.ops, ['get', 'lock', 'get', 'put'], problem);
      assert.deepEqual(s.warnings, [
        `The shared token store memory holds an entry for scope "${SCOPE}" that is no usable token (${problem}); ignoring it`,
      ]);
    }
  });

  test('a store that says "none" with null: a miss, without a warning', async () => {
    const s = setup();
    s.plant(null);
    assert.equal((await s.shared.fetchGrant(SCOPE)).token, 'own-1');
    assert.deepEqual(s.warnings, []);
  });

  test('a stored expiry beyond the lifetime (a clock ahead) counts as the full lifetime from now', async () => {
    const s = setup();
    await s.stored('ahead', 10 * HOUR);
    assert.deepEqual(await s.shared.fetchGrant(SCOPE), {
      token: 'ahead',
      expiresAt: s.clock.now() + HOUR,
      lifetime: HOUR,
      source: 'store',
    });
  });

  test('confirm: a store that keeps nothing drops the held token once, then keeps it, warned once; an entry found resets it', async () => {
    const s = setup();
    assert.equal(await s.shared.confirm(SCOPE, 'own-1'), false, 'gone: forgotten by another process, as far as it can tell');
    assert.equal(await s.shared.confirm(SCOPE, 'own-2'), true, 'gone again right after: the store keeps nothing');
    const kept =
      `The shared token store memory keeps no token for scope "${SCOPE}" (the one stored was gone at the next call); using tokens from memory until it keeps one`;
    assert.deepEqual(s.warnings, [kept]);
    assert.equal(await s.shared.confirm(SCOPE, 'own-2'), true);
    assert.deepEqual(s.warnings, [kept], 'warned once');
    await s.stored('own-2');
    assert.equal(await s.shared.confirm(SCOPE, 'own-2'), true);
    await s.inner.deleteIfSame(KEY, 'own-2');
    assert.equal(await s.shared.confirm(SCOPE, 'own-2'), false, 'the store kept a token: a miss is a forget again');
    assert.equal(await s.shared.confirm('service_id=other', 'x'), false, 'counted per scope');
  });

  test('with nobody listening for events, every path works the same', async () => {
    const clock = createFakeClock();
    const store = createMemoryStore(clock.wallNow);
    const shared = createSharedGrants(async () => ({ token: 'own', expiresAt: clock.now() + HOUR, lifetime: HOUR }), {
      store,
      authUrl: KEY.authUrl,
      username: KEY.username,
      clock,
      warn: () => {},
    });
    const release = await store.lock(KEY, 60_000);
    const waiting = shared.fetchGrant(SCOPE);
    await new Promise((resolve) => setImmediate(resolve));
    await release?.();
    clock.advance(50);
    assert.equal((await waiting).token, 'own', 'after a lock wait');
    assert.equal((await shared.fetchGrant(SCOPE)).source, 'store', 'read from the store');
    const failing = createSharedGrants(async () => ({ token: 'direct', expiresAt: HOUR, lifetime: HOUR }), {
      store: { ...store, get: () => Promise.reject(new Error('down')) },
      authUrl: KEY.authUrl,
      username: KEY.username,
      clock,
      warn: () => {},
    });
    assert.equal((await failing.fetchGrant(SCOPE)).token, 'direct', 'while the store is down');
  });

  test('a refresh never reads back the token it replaces', async () => {
    const s = setup();
    await s.stored('old');
    const grant = await s.shared.fetchGrant(SCOPE, { token: 'old', expiresAt: HOUR, lifetime: HOUR });
    assert.equal(grant.token, 'own-1');
    assert.equal((await s.inner.get(KEY))?.token, 'own-1', 'stored for the others');
  });

  test('a token another caller stored just before the lock was taken is used, with no request', async () => {
    const s = setup();
    await s.stored('expiring', LAST_USABLE); // too close to expiry for the first read
    s.before.lock = () => s.stored('just-in'); // another process stores its token, then releases the lock
    assert.equal((await s.shared.fetchGrant(SCOPE)).token, 'just-in');
    assert.equal(s.requests(), 0);
    assert.deepEqual(s.ops, ['get', 'lock', 'get']);
  });

  test('when the look after taking the lock fails, a refresh fetches its own token and does not overwrite the store', async () => {
    const s = setup();
    await s.stored('old');
    s.failNthGet(2);
    const grant = await s.shared.fetchGrant(SCOPE, { token: 'old', expiresAt: HOUR, lifetime: HOUR });
    assert.equal(grant.token, 'own-1');
    assert.equal((await s.inner.get(KEY))?.token, 'old', 'not overwritten: what the store holds is unknown');
  });

  test('a store that cannot lock: one warning, a token fetched directly, nothing stored', async () => {
    const s = setup();
    s.failing.add('lock');
    assert.equal((await s.shared.fetchGrant(SCOPE)).token, 'own-1');
    assert.deepEqual(s.warnings, [outage('lock')]);
    assert.deepEqual(s.ops, ['get', 'lock']);
    assert.deepEqual(s.events, [{ type: 'store.fallback', store: 'memory', reason: 'the store refused lock' }]);
  });

  test('a store that fails while a caller polls: that caller fetches its own token at once', async () => {
    const s = setup();
    const release = await s.inner.lock(KEY, 60_000);
    assert.ok(release);
    s.clock.advance(1_000);
    const waiting = s.shared.fetchGrant(SCOPE);
    await new Promise((resolve) => setImmediate(resolve));
    s.failing.add('get').add('lock');
    s.clock.advance(50);
    assert.equal((await waiting).token, 'own-1');
    assert.deepEqual(s.ops, ['get', 'lock', 'get']);
    assert.deepEqual(s.events.map((e) => e.type), ['store.fallback']);
  });

  test('a caller that waited for the lock reports how long it waited on the clock, from when it began', async () => {
    const s = setup();
    s.clock.advance(5_000);
    const release = await s.inner.lock(KEY, 60_000);
    assert.ok(release);
    const waiting = s.shared.fetchGrant(SCOPE);
    await new Promise((resolve) => setImmediate(resolve));
    await release();
    s.clock.advance(50);
    assert.equal((await waiting).token, 'own-1');
    assert.deepEqual(s.events, [{ type: 'lock.wait', scope: SCOPE, waitedMs: 50, outcome: 'acquired' }]);
  });

  test('a store that answers again after an outage says so once, and a later outage is warned again', async () => {
    const s = setup();
    s.failing.add('get');
    await s.shared.fetchGrant(SCOPE);
    await s.shared.fetchGrant(SCOPE);
    s.failing.clear();
    await s.shared.fetchGrant(SCOPE);
    await s.shared.fetchGrant(SCOPE);
    s.failing.add('get');
    await s.shared.fetchGrant(SCOPE);
    assert.deepEqual(s.warnings, [outage('get'), 'The shared token store memory answers again; using it', outage('get')]);
  });

  test('confirm: one read for concurrent askers of one token; each token its own answer; a new read once settled', async () => {
    const s = setup();
    await s.stored('current');
    assert.deepEqual(
      await Promise.all([s.shared.confirm(SCOPE, 'current'), s.shared.confirm(SCOPE, 'current'), s.shared.confirm(SCOPE, 'stale')]),
      [true, true, false],
    );
    assert.deepEqual(s.ops, ['get', 'get']);
    await s.inner.deleteIfSame(KEY, 'current');
    assert.equal(await s.shared.confirm(SCOPE, 'current'), false, 'forgotten by another process');
  });

  test('confirm: a token stands while the store cannot be read', async () => {
    const s = setup();
    s.failing.add('get');
    assert.equal(await s.shared.confirm(SCOPE, 'held'), true);
  });

  test('forget without a token deletes whatever is stored and never reads it back; with nothing stored it touches nothing more', async () => {
    const s = setup();
    await s.shared.forget(SCOPE);
    assert.deepEqual(s.ops, ['get']);
    await s.stored('refused');
    await s.shared.forget(SCOPE);
    assert.equal(await s.inner.get(KEY), undefined);
    await s.stored('refused');
    assert.equal((await s.shared.fetchGrant(SCOPE)).token, 'own-1', 'a refused token is never read back');
    const down = setup();
    down.failing.add('get');
    await down.shared.forget(SCOPE);
    assert.deepEqual(down.ops, ['get']);
  });
});
