/**
 * The memory store, the reference implementation of the store interface, on
 * a fake wall clock: keys kept apart, expiry to the millisecond,
 * compare-and-delete, and a lock released only by its owner.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createMemoryStore } from './memory.ts';
import type { StoreKey } from './store.ts';

const KEY: StoreKey = { authUrl: 'https://auth.example', username: 'u', scope: 'service_id=s' };
const grant = (token: string, expiresAt = 10_000) => ({ token, expiresAt, lifetime: 10_000 });

function setup() {
  let wall = 0;
  return { store: createMemoryStore(() => wall), at: (ms: number) => void (wall = ms) };
}

describe('memory store', () => {
  test('describes itself as memory, and keeps each auth URL, user and scope apart', async () => {
    const { store } = setup();
    assert.equal(store.description, 'memory');
    const others = [{ ...KEY, authUrl: 'https://other.example' }, { ...KEY, username: 'v' }, { ...KEY, scope: 'service_id=t' }];
    await store.put(KEY, grant('mine'));
    for (const [i, key] of others.entries()) await store.put(key, grant(`other-${i}`));
    assert.equal((await store.get(KEY))?.token, 'mine');
    for (const [i, key] of others.entries()) assert.equal((await store.get(key))?.token, `other-${i}`);
  });

  test('an entry is read until the instant its token expires, not at it', async () => {
    const s = setup();
    await s.store.put(KEY, grant('t', 5_000));
    s.at(4_999);
    assert.deepEqual(await s.store.get(KEY), grant('t', 5_000));
    s.at(5_000);
    assert.equal(await s.store.get(KEY), undefined);
  });

  test('compare-and-delete deletes only the token named; a missing entry is no error', async () => {
    const { store } = setup();
    await store.deleteIfSame(KEY, 'nothing stored');
    await store.put(KEY, grant('newer'));
    await store.deleteIfSame(KEY, 'older');
    assert.equal((await store.get(KEY))?.token, 'newer');
    await store.deleteIfSame(KEY, 'newer');
    assert.equal(await store.get(KEY), undefined);
  });

  test('a lock is held until its TTL ends, to the millisecond; a stale holder cannot release its successor', async () => {
    const s = setup();
    const first = await s.store.lock(KEY, 1_000);
    assert.ok(first);
    s.at(999);
    assert.equal(await s.store.lock(KEY, 1_000), undefined);
    s.at(1_000);
    const second = await s.store.lock(KEY, 1_000);
    assert.ok(second, 'expired at its TTL');
    await first();
    assert.equal(await s.store.lock(KEY, 1_000), undefined, "the first holder's release left the second's lock");
    await second();
    await second();
    assert.ok(await s.store.lock(KEY, 1_000), 'released (twice is harmless)');
  });
});
