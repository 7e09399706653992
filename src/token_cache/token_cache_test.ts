import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MinValidityUnreachableError, TokenEndpointUnavailableError } from '../errors.ts';
import type { AuthEvent } from '../events.ts';
import type { Grant } from '../grant.ts';
import { createTokenCache, type GetTokenOptions, type TokenCacheOptions } from './token_cache.ts';

/** A cache over a counting fake fetcher and a fake clock (no network: this is the cache's logic alone). */
function setup(lifetimeSeconds = 3600, overrides: Partial<TokenCacheOptions> = {}) {
  let time = 0;
  let calls = 0;
  let fail = false;
  const warnings: string[] = [];
  const fetchGrant = async (scope: string): Promise<Grant> => {
    calls++;
    const sentAt = time;
    await new Promise((resolve) => setImmediate(resolve));
    if (fail) throw new TokenEndpointUnavailableError('down');
    return { token: `${scope}#${calls}`, expiresAt: sentAt + lifetimeSeconds * 1000, lifetime: lifetimeSeconds * 1000 };
  };
  const events: AuthEvent[] = [];
  const cache = createTokenCache({
    fetchGrant,
    now: () => time,
    random: () => 0,
    warn: (m) => warnings.push(m),
    emit: (event) => events.push(event),
    ...overrides,
  });
  return {
    cache,
    events,
    /** The token a get hands out. */
    get: async (scope: string, options?: GetTokenOptions) => (await cache.get(scope, options)).grant.token,
    warnings,
    calls: () => calls,
    at: (seconds: number) => {
      time = seconds * 1000;
    },
    failing: (value: boolean) => {
      fail = value;
    },
  };
}

describe('token cache', () => {
  test('1,000 concurrent cold calls make one request', async () => {
    const s = setup();
    const tokens = await Promise.all(Array.from({ length: 1000 }, () => s.get('service_id=a')));
    assert.equal(s.calls(), 1);
    assert.equal(new Set(tokens).size, 1);
  });

  test('concurrent calls for two scopes make two requests, each caller getting its own scope', async () => {
    const s = setup();
    const calls = Array.from({ length: 200 }, (_, i) => (i % 2 ? 'service_id=a' : 'service_id=b'));
    const tokens = await Promise.all(calls.map((scope) => s.get(scope)));
    assert.equal(s.calls(), 2);
    tokens.forEach((token, i) => assert.ok(token.startsWith(`${calls[i]}#`), `caller ${i} got ${token}`));
  });

  test('hands out the cached token until the margin, then refreshes in the background', async () => {
    const s = setup(3600);
    const first = await s.get('s');
    s.at(3000); // 600 s left: before the 300 s margin
    assert.equal(await s.get('s'), first);
    assert.equal(s.calls(), 1);
    s.at(3350); // 250 s left: early in the margin
    assert.equal(await s.get('s'), first, 'callers get the still-valid token');
    await s.cache.settled();
    assert.equal(s.calls(), 2, 'one background refresh ran');
    assert.notEqual(await s.get('s'), first);
  });

  test('late in the margin callers wait for the new token; never past expiry', async () => {
    const s = setup(3600);
    const first = await s.get('s');
    s.at(3500); // 100 s left: past the margin midpoint
    assert.notEqual(await s.get('s'), first);
    s.at(7300);
    s.failing(true);
    await assert.rejects(s.get('s'), { code: 'TOKEN_ENDPOINT_UNAVAILABLE' }, 'an expired token is never handed out');
  });

  test('a failed refresh keeps the still-valid token and is retried later, not on every call', async () => {
    const s = setup(3600);
    const first = await s.get('s');
    s.failing(true);
    s.at(3550);
    assert.equal(await s.get('s'), first);
    assert.equal(s.calls(), 2);
    assert.equal(await s.get('s'), first);
    assert.equal(s.calls(), 2, 'paused after the failure');
    s.at(3590);
    s.failing(false);
    assert.notEqual(await s.get('s'), first);
  });

  test('the refresh point jitters with the random source', async () => {
    const early = setup(3600, { random: () => 1 });
    await early.get('s');
    early.at(3275); // 325 s left: inside margin × 1.1 (330 s), outside 300 s
    await early.get('s');
    await early.cache.settled();
    assert.equal(early.calls(), 2);
    const late = setup(3600, { random: () => 0 });
    await late.get('s');
    late.at(3275);
    await late.get('s');
    assert.equal(late.calls(), 1);
  });

  test('a 5-second token is not refreshed on every call', async () => {
    const s = setup(5);
    for (let ms = 0; ms <= 60_000; ms += 100) {
      s.at(ms / 1000);
      await s.get('s');
    }
    // Margin is 2.5 s: about one request per 2.5 s, not 600.
    assert.ok(s.calls() >= 20 && s.calls() <= 30, `made ${s.calls()} requests`);
  });

  test('a refresh that does not extend the expiry is kept, logged once, and not repeated', async () => {
    let calls = 0;
    let time = 0;
    const warnings: string[] = [];
    const cache = createTokenCache({
      fetchGrant: async () => {
        calls++;
        return { token: 'same', expiresAt: 3_600_000, lifetime: 3_600_000 - time };
      },
      now: () => time,
      random: () => 0,
      warn: (m) => warnings.push(m),
    });
    await cache.get('s');
    time = 3_500_000;
    for (let i = 0; i < 50; i++) await cache.get('s', { minValidity: 900 });
    assert.equal(calls, 2);
    assert.equal(warnings.length, 1);
    time = 3_600_000;
    await cache.get('s');
    assert.equal(calls, 3, 'a new token is fetched once it expired');
  });

  test('minValidity forces an early refresh, once', async () => {
    const s = setup(3600);
    const first = await s.get('s');
    s.at(2800); // 800 s left
    const second = await s.get('s', { minValidity: 900 });
    assert.notEqual(second, first);
    assert.equal(await s.get('s', { minValidity: 900 }), second);
    assert.equal(s.calls(), 2);
  });

  test('a minValidity above the lifetime is MIN_VALIDITY_UNREACHABLE, naming both figures, with no extra request', async () => {
    const s = setup(60);
    await s.get('s');
    for (let i = 0; i < 3; i++) {
      await assert.rejects(s.get('s', { minValidity: 900 }), (error: unknown) => {
        assert.ok(error instanceof MinValidityUnreachableError);
        assert.equal(error.code, 'MIN_VALIDITY_UNREACHABLE');
        assert.match(
          error.message,
          /at most 60 s for scope "s": the service issues tokens valid 60 s, so no token can be valid 900 s more/,
        );
        return true;
      });
    }
    assert.equal(s.calls(), 1, 'never a request more');
    const cold = setup(60);
    await assert.rejects(cold.get('s', { minValidity: 61 }), { code: 'MIN_VALIDITY_UNREACHABLE' });
    assert.equal(cold.calls(), 1, 'a cold cache learns the lifetime from one token, kept for later calls');
    assert.equal(await cold.get('s', { minValidity: 50 }), 's#1');
  });

  test('invalidate drops a token only while it is the cached one', async () => {
    const s = setup();
    const first = await s.get('s');
    await s.cache.invalidate('s', 'another');
    assert.equal(await s.get('s'), first);
    await s.cache.invalidate('s', first);
    assert.notEqual(await s.get('s'), first);
  });

  test('a configured margin is used, capped at half the lifetime', async () => {
    const s = setup(3600, { marginMs: 60_000 });
    const first = await s.get('s');
    s.at(3500); // 100 s left: outside a 60 s margin
    assert.equal(await s.get('s'), first);
    assert.equal(s.calls(), 1);
  });

  test('an aborted caller is rejected at once with the reason; the shared request goes on for the others, once', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const s = setup(3600, {
      fetchGrant: async (scope) => {
        await gate;
        return { token: `${scope}#slow`, expiresAt: 3_600_000, lifetime: 3_600_000 };
      },
    });
    const controller = new AbortController();
    const waiting = s.get('s', { signal: controller.signal });
    const other = s.get('s');
    controller.abort(new Error('the user gave up'));
    await assert.rejects(waiting, /the user gave up/);
    release();
    assert.equal(await other, 's#slow', 'the other caller still gets the token');
    await assert.rejects(s.get('s', { signal: AbortSignal.abort(new Error('already')) }), /already/);
  });

  test('forceRefresh replaces a fresh token, forgetting the old one in the shared layer; events say why', async () => {
    const forgotten: [string, string | undefined][] = [];
    const s = setup(3600, { forget: async (scope, token) => void forgotten.push([scope, token]) });
    const first = await s.get('s');
    const second = await s.get('s', { forceRefresh: true });
    assert.notEqual(second, first);
    assert.deepEqual(forgotten, [['s', first]], 'the old token, compare-and-delete');
    assert.equal(await s.get('s'), second, 'the new one is kept');
    assert.equal(s.calls(), 2);
    assert.deepEqual(
      s.events.map((e) => (e.type === 'token.refresh' ? `${e.type} ${e.reason}` : e.type)),
      ['token.refresh forced', 'token.cached'],
    );
  });

  test('events: a memory hit is token.cached; a refresh for minValidity and one in the margin are token.refresh with the margin applied', async () => {
    const s = setup(3600);
    await s.get('s');
    assert.equal(s.events.length, 0, 'a first token is a request, not a refresh');
    await s.get('s');
    s.at(1000); // 2,600 s left, less than the 3,000 asked for
    await s.get('s', { minValidity: 3000 });
    s.at(1000 + 3350); // 250 s left of the new token: in its margin, a background refresh
    await s.get('s');
    await s.cache.settled();
    assert.deepEqual(s.events.filter((e) => e.type === 'token.refresh'), [
      { type: 'token.refresh', scope: 's', reason: 'min-validity', remainingMs: 2_600_000, marginMs: 300_000 },
      { type: 'token.refresh', scope: 's', reason: 'margin', remainingMs: 250_000, marginMs: 300_000 },
    ]);
    assert.deepEqual(s.events.filter((e) => e.type === 'token.cached'), [
      { type: 'token.cached', scope: 's', layer: 'memory' },
      { type: 'token.cached', scope: 's', layer: 'memory' },
    ], 'the second get and the one early in the margin');
    assert.equal(s.calls(), 3);
  });

  test('peek hands out the token early in the margin and starts one background refresh; past the midpoint it leaves it to get', async () => {
    const s = setup(3600);
    const first = await s.get('s');
    s.at(3000);
    assert.equal(s.cache.peek('s'), first, 'before the margin');
    assert.equal(s.calls(), 1);
    s.at(3350); // 250 s left: early in the 300 s margin
    assert.equal(s.cache.peek('s'), first);
    assert.equal(s.cache.peek('s'), first);
    assert.equal(s.calls(), 2, 'one background refresh for both');
    await s.cache.settled();
    assert.notEqual(s.cache.peek('s'), first, 'the new token once it came');
    s.at(3350 + 3600 - 100); // 100 s left of the new token: past the midpoint of its margin
    assert.equal(s.cache.peek('s'), undefined);
  });
});
