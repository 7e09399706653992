import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { AuthEvent } from '../events.ts';
import type { Grant } from '../grant.ts';
import { createSharedGrants, LOCK_TTL_MS } from './shared_grants.ts';
import { createMemoryStore } from '../stores/memory.ts';
import type { StoreKey } from '../stores/store.ts';
import { createFakeClock } from '../testing/fake_clock.ts';

const SCOPE = 'service_id=s';
const KEY: StoreKey = { authUrl: 'https://auth.example', username: 'u', scope: SCOPE };

/** Shared grants over a memory store on one fake clock, with a counting fetcher (the policy alone, no network). */
function setup(options: { autoAdvance?: boolean } = {}) {
  const clock = createFakeClock(options);
  const store = createMemoryStore(clock.wallNow);
  const warnings: string[] = [];
  let requests = 0;
  const fetchGrant = async (): Promise<Grant> => {
    requests++;
    return { token: `own-${requests}`, expiresAt: clock.now() + 3_600_000, lifetime: 3_600_000 };
  };
  const events: AuthEvent[] = [];
  const shared = createSharedGrants(fetchGrant, {
    store,
    authUrl: KEY.authUrl,
    username: KEY.username,
    clock,
    warn: (m) => warnings.push(m),
    emit: (event) => events.push(event),
  });
  return { clock, store, shared, warnings, events, requests: () => requests };
}

/** Lets pending promise callbacks run (the store is in memory: a few turns suffice). */
const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe('shared grants on a fake clock', () => {
  test('a caller waiting on a held lock reads the token its holder stores, polling every 50 ms of the clock', async () => {
    const s = setup();
    const release = await s.store.lock(KEY, LOCK_TTL_MS); // another process is fetching
    assert.ok(release);
    const waiting = s.shared.fetchGrant(SCOPE);
    await settle();
    s.clock.advance(50);
    await settle();
    s.clock.advance(50);
    await settle();
    assert.equal(s.clock.sleeps(), 3, 'two polls done, the third waiting: every wait on the injected clock');
    const storedAt = s.clock.now();
    await s.store.put(KEY, { token: 'from-holder', expiresAt: s.clock.wallNow() + 3_600_000, lifetime: 3_600_000 });
    await release();
    s.clock.advance(50);
    const grant = await waiting;
    assert.equal(grant.token, 'from-holder');
    assert.equal(s.requests(), 0, 'no request of its own');
    assert.equal(grant.expiresAt, storedAt + 3_600_000, 'the stored wall-clock expiry mapped onto the monotonic clock');
    assert.deepEqual(s.events, [
      { type: 'token.cached', scope: SCOPE, layer: 'store' },
      { type: 'lock.wait', scope: SCOPE, waitedMs: 150, outcome: 'read' },
    ]);
  });

  test('waiting is bounded: after 15 s of a lock that stays taken, one warning and a token fetched without it', async () => {
    const s = setup({ autoAdvance: true });
    await s.store.lock(KEY, 10 * LOCK_TTL_MS); // a holder that never releases
    const grant = await s.shared.fetchGrant(SCOPE);
    assert.equal(grant.token, 'own-1');
    assert.equal(s.requests(), 1);
    assert.ok(s.clock.now() > 15_000 && s.clock.now() <= 15_100, `waited 15 s on the clock (${s.clock.now()} ms)`);
    assert.deepEqual(s.warnings, [`The shared token store's lock for scope "${SCOPE}" stayed taken; fetching a token without it`]);
    assert.deepEqual(s.events.map((e) => e.type === 'lock.wait' && e.outcome), ['gave-up']);
  });

  test('a lock left by a holder that died expires after its TTL on the store clock, and the next caller takes it', async () => {
    const s = setup({ autoAdvance: true });
    await s.store.lock(KEY, 1500);
    const grant = await s.shared.fetchGrant(SCOPE);
    assert.equal(grant.token, 'own-1');
    assert.ok(s.clock.now() >= 1500 && s.clock.now() < 1600, `took the lock once it expired (${s.clock.now()} ms)`);
    assert.deepEqual(s.warnings, [], 'no warning: the lock expired, it was not given up on');
    assert.deepEqual(s.events.map((e) => e.type === 'lock.wait' && e.outcome), ['acquired']);
    assert.equal((await s.store.get(KEY))?.token, 'own-1', 'stored for the others');
  });
});
