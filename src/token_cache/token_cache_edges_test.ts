/**
 * The token cache at its exact edges, on a fake clock: the instant a token
 * enters its margin, the margin's midpoint, expiry, the end of a pause after a
 * failed refresh, a replacement that expires no later, and what invalidate
 * forgets in the shared layer.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { TokenEndpointUnavailableError } from '../errors.ts';
import type { AuthEvent } from '../events.ts';
import type { Grant } from '../grant.ts';
import { createTokenCache, type TokenCacheOptions } from './token_cache.ts';

/**
 * A cache whose fetcher hands out the grants `next` makes (by default a new
 * token of `lifetimeS` seconds from now), or fails while `failing` is set.
 */
function edges(lifetimeS = 3600, overrides: Partial<TokenCacheOptions> = {}) {
  const s = {
    time: 0,
    calls: 0,
    failing: undefined as unknown,
    warnings: [] as string[],
    events: [] as AuthEvent[],
    forgotten: [] as [string, string | undefined][],
    next: (n: number, now: number): Grant => ({ token: `t${n}`, expiresAt: now + lifetimeS * 1000, lifetime: lifetimeS * 1000 }),
  };
  const cache = createTokenCache({
    fetchGrant: async () => {
      s.calls++;
      const now = s.time;
      await new Promise((resolve) => setImmediate(resolve));
      if (s.failing !== undefined) throw s.failing;
      return s.next(s.calls, now);
    },
    now: () => s.time,
    random: () => 0,
    warn: (m) => s.warnings.push(m),
    emit: (event) => s.events.push(event),
    forget: async (scope, token) => void s.forgotten.push([scope, token]),
    ...overrides,
  });
  const token = async (scope = 's', minValidity?: number) => (await cache.get(scope, { minValidity })).grant.token;
  const refreshes = () => s.events.flatMap((e) => (e.type === 'token.refresh' ? [`${e.reason} ${e.remainingMs}`] : []));
  return { s, cache, token, refreshes, at: (seconds: number) => void (s.time = seconds * 1000) };
}

// A 3,600 s token with the default 300 s margin and no jitter: the background refresh starts
// 300 s before expiry (3,300 s), callers wait from the margin's midpoint (150 s before, 3,450 s).

describe('token cache edges', () => {
  test('the background refresh starts at the very instant the margin begins', async () => {
    const e = edges();
    await e.token();
    e.at(3299.999);
    assert.equal(await e.token(), 't1');
    await e.cache.settled();
    assert.equal(e.s.calls, 1, 'not yet');
    e.at(3300);
    assert.equal(await e.token(), 't1', 'the current token is still handed out');
    await e.cache.settled();
    assert.equal(e.s.calls, 2);
    assert.equal(await e.token(), 't2');
  });

  test("at the margin's midpoint callers wait for the new token, and the event says margin", async () => {
    const e = edges();
    await e.token();
    e.at(3450);
    assert.equal(await e.token(), 't2');
    assert.deepEqual(e.refreshes(), ['margin 150000']);
  });

  test("peek at the margin's midpoint leaves the token to get; before it, peek reports a memory hit", async () => {
    const e = edges();
    await e.token();
    e.s.events.length = 0;
    e.at(3449);
    assert.equal(e.cache.peek('s'), 't1');
    assert.deepEqual(e.s.events.at(-1), { type: 'token.cached', scope: 's', layer: 'memory' });
    await e.cache.settled();
    e.at(3449 + 3600 - 150); // the midpoint of the new token, fetched at 3,449 s
    assert.equal(e.cache.peek('s'), undefined);
  });

  test('holds says a token needs no token request, without reporting a hit or starting a refresh; with a shared store too', async () => {
    const e = edges();
    assert.equal(e.cache.holds('s'), false, 'nothing held yet');
    await e.token();
    e.s.events.length = 0;
    e.at(3449); // early in the margin: peek would start a background refresh
    assert.equal(e.cache.holds('s'), true);
    await e.cache.settled();
    assert.deepEqual([e.s.events, e.s.calls], [[], 1]);
    e.at(3450);
    assert.equal(e.cache.holds('s'), false, "at the margin's midpoint");
    // A token a shared store confirms first: peek leaves it to get, which confirms it without a token request.
    const shared = edges(3600, { confirm: async () => true });
    await shared.token();
    assert.deepEqual([shared.cache.holds('s'), shared.cache.peek('s')], [true, undefined]);
  });

  test('a minValidity met exactly by the remaining lifetime needs no refresh', async () => {
    const e = edges();
    await e.token();
    e.at(2700); // 900 s left
    assert.equal(await e.token('s', 900), 't1');
    assert.equal(e.s.calls, 1);
    assert.equal(await e.token('s', 900.001), 't2');
    assert.deepEqual(e.refreshes(), ['min-validity 900000']);
  });

  test('a minValidity near the whole lifetime is met by a token with 90 % of its lifetime left, not refreshed on every call', async () => {
    const e = edges();
    await e.token('s', 3500);
    e.at(360); // 3,240 s left: exactly 90 %
    assert.equal(await e.token('s', 3500), 't1');
    assert.equal(e.s.calls, 1);
    e.at(360.001);
    assert.equal(await e.token('s', 3500), 't2');
  });

  test('a failed background refresh pauses the next attempt until the pause ends, to the millisecond', async () => {
    const e = edges();
    await e.token();
    e.at(3300);
    e.s.failing = new TokenEndpointUnavailableError('down');
    assert.equal(await e.token(), 't1');
    await e.cache.settled();
    assert.equal(e.s.calls, 2);
    e.at(3329.999); // the pause is 30 s
    assert.equal(await e.token(), 't1');
    assert.equal(e.s.calls, 2, 'paused');
    e.s.failing = undefined;
    e.at(3330);
    assert.equal(await e.token(), 't1');
    await e.cache.settled();
    assert.equal(e.s.calls, 3, 'tried again once the pause ended');
  });

  test('the pause after a failed refresh is a tenth of a short lifetime (6 s for a 60 s token)', async () => {
    const e = edges(60);
    await e.token();
    e.at(50); // 10 s left: past the 15 s midpoint of a 30 s margin
    e.s.failing = new TokenEndpointUnavailableError('down');
    assert.equal(await e.token(), 't1', 'the still-valid token');
    assert.equal(e.s.calls, 2);
    e.at(55.999);
    assert.equal(await e.token(), 't1');
    assert.equal(e.s.calls, 2, 'paused');
    e.s.failing = undefined;
    e.at(56);
    assert.equal(await e.token(), 't3');
  });

  test('a failed background refresh warns with the error code and the seconds the current token has left', async () => {
    const e = edges();
    await e.token();
    e.at(3349.6);
    e.s.failing = new TokenEndpointUnavailableError('down');
    await e.token();
    await e.cache.settled();
    e.at(3380); // the 30 s pause is over
    e.s.failing = new TypeError('not an AuthError');
    await e.token();
    await e.cache.settled();
    assert.deepEqual(e.s.warnings, [
      'Background token refresh for scope "s" failed (TOKEN_ENDPOINT_UNAVAILABLE); keeping the current token, valid 250 s more',
      'Background token refresh for scope "s" failed (UNKNOWN); keeping the current token, valid 220 s more',
    ]);
  });

  test('an expired token is never handed out, even while refreshes are paused after a failure', async () => {
    const e = edges();
    await e.token();
    e.at(3599);
    e.s.failing = new TokenEndpointUnavailableError('down');
    assert.equal(await e.token(), 't1', '1 s left: kept after the failure; paused for 30 s');
    e.at(3600);
    await assert.rejects(e.token(), { code: 'TOKEN_ENDPOINT_UNAVAILABLE' });
    e.s.failing = undefined;
    assert.equal(await e.token(), 't4');
    assert.deepEqual(e.refreshes(), ['margin 1000'], 'a token past expiry is not refreshed: a new one is requested');
  });

  test('a refresh that fails just as the token expires rejects instead of handing out the expired token', async () => {
    const e = edges();
    let calls = 0;
    const cache = createTokenCache({
      fetchGrant: async () => {
        if (++calls === 1) return { token: 'first', expiresAt: 3_600_000, lifetime: 3_600_000 };
        e.s.time = 3_600_000; // the request took until expiry
        throw new TokenEndpointUnavailableError('down');
      },
      now: () => e.s.time,
      random: () => 0,
      warn: () => {},
    });
    await cache.get('s');
    e.at(3500);
    await assert.rejects(cache.get('s'), { code: 'TOKEN_ENDPOINT_UNAVAILABLE' });
  });

  test('a replacement expiring at most 1 s after the one it replaces is final; later than that it is a normal token', async () => {
    const e = edges();
    e.s.next = (n) => ({ token: `t${n}`, expiresAt: n === 1 ? 3_600_000 : 3_601_000, lifetime: 3_600_000 });
    await e.token();
    e.at(3500);
    assert.equal(await e.token(), 't2');
    assert.equal(await e.token(), 't2', 'final: kept until it expires');
    assert.equal(e.s.calls, 2);
    const later = edges();
    later.s.next = (n) => ({ token: `t${n}`, expiresAt: n === 1 ? 3_600_000 : 3_601_001, lifetime: 3_600_000 });
    await later.token();
    later.at(3500);
    assert.equal(await later.token(), 't2');
    assert.deepEqual(later.s.warnings, []);
    assert.equal(await later.token(), 't3', '101 s left of a normal token is past its midpoint');
  });

  test('the warning about a replacement that expires no later is written once per cache, whatever the scope', async () => {
    const e = edges();
    e.s.next = (n) => ({ token: `t${n}`, expiresAt: 3_600_000, lifetime: 3_600_000 });
    await e.token('a');
    await e.token('b');
    e.at(3500);
    await e.token('a');
    await e.token('b');
    assert.equal(e.s.calls, 4);
    assert.deepEqual(e.s.warnings, [
      'The token endpoint returned a token that expires no later than the one it replaces; ' +
      'using it until it expires instead of refreshing again',
    ]);
  });

  test('a token fetched after the previous one expired is never compared with it, even at the instant of expiry', async () => {
    const e = edges();
    // A shared store may hand out a token that expires soon after the one that just expired.
    e.s.next = (n) => ({ token: `t${n}`, expiresAt: n === 1 ? 3_600_000 : 3_600_500, lifetime: 3_600_000 });
    await e.token();
    e.at(3600);
    assert.equal(await e.token(), 't2');
    assert.deepEqual(e.s.warnings, []);
  });

  test('forceRefresh on a cold cache requests one token and forgets nothing', async () => {
    const e = edges();
    assert.equal((await e.cache.get('s', { forceRefresh: true })).grant.token, 't1');
    assert.deepEqual(e.s.forgotten, []);
  });

  test('while forceRefresh waits, other callers wait for the new token rather than take the old one', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const e = edges(3600, { forget: () => gate });
    await e.token();
    const forced = e.cache.get('s', { forceRefresh: true });
    const other = e.token();
    release();
    assert.equal((await forced).grant.token, 't2');
    assert.equal(await other, 't2');
  });

  test('a token replaced while it was being confirmed is kept; only the token the store refused is dropped', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const e = edges(3600, { confirm: async (_scope, token) => (token === 't1' ? gate.then(() => false) : true) });
    await e.token();
    const confirming = e.token();
    assert.equal((await e.cache.get('s', { forceRefresh: true })).grant.token, 't2');
    release();
    assert.equal(await confirming, 't2');
    assert.equal(e.s.calls, 2);
  });

  test('invalidate: every scope without arguments, one scope when named, and the shared layer told each token', async () => {
    const e = edges();
    await e.cache.invalidate();
    assert.deepEqual(e.s.forgotten, [], 'nothing held, no scope named: nothing to forget');
    await e.token('a');
    await e.token('b');
    await e.cache.invalidate('a');
    assert.deepEqual(e.s.forgotten, [['a', 't1']]);
    assert.equal(await e.token('b'), 't2', 'the other scope is kept');
    await e.cache.invalidate();
    assert.deepEqual(e.s.forgotten, [['a', 't1'], ['b', 't2']]);
    assert.equal(await e.token('b'), 't3');
  });

  test('invalidate of a scope memory does not hold still forgets it in the shared layer, with the token named if any', async () => {
    const e = edges();
    await e.cache.invalidate('s');
    await e.token('s');
    await e.cache.invalidate('s', 'another');
    assert.deepEqual(e.s.forgotten, [['s', undefined], ['s', 'another']]);
    assert.equal(await e.token('s'), 't1', 'memory holds another token: kept');
  });
});
