/**
 * The pause after a failed token request: callers who go on calling get the
 * failure again at once, and the token endpoint sees one request per pause.
 * On a fake clock; the last test sends real requests to the sandbox.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { ErrorCode, TokenEndpointUnavailableError, TokenRequestRejectedError } from '../errors.ts';
import type { AuthEvent } from '../events.ts';
import type { Grant } from '../grant.ts';
import { pauseAfterFailure } from './grant_pause.ts';
import { type Harness, startHarness } from '../testing/sandbox_harness.ts';

/**
 * A fetcher that fails while `failing` holds, counting its calls per scope; its failures' answers carry `retryAfter`.
 * It fails as a 503, or with `refusal` as that 4xx refusal (`TOKEN_REQUEST_REJECTED`).
 */
function fetcher() {
  const state = {
    failing: true,
    calls: new Map<string, number>(),
    errors: [] as Error[],
    retryAfter: undefined as string | undefined,
    refusal: undefined as { status: number; error?: string; headers?: Record<string, string> } | undefined,
  };
  const fetchGrant = (scope: string): Promise<Grant> => {
    state.calls.set(scope, (state.calls.get(scope) ?? 0) + 1);
    if (!state.failing) return Promise.resolve({ token: `tok-${scope}`, expiresAt: 3_600_000, lifetime: 3_600_000 });
    const headers: Record<string, string> = state.retryAfter === undefined ? {} : { 'retry-after': state.retryAfter };
    const { refusal } = state;
    const error = refusal
      ? new TokenRequestRejectedError(`refused ${state.errors.length + 1}`, {
        ...refusal,
        response: new Response(null, { status: refusal.status, headers: { ...headers, ...refusal.headers } }),
      })
      : new TokenEndpointUnavailableError(`down ${state.errors.length + 1}`, {
        status: 503,
        response: new Response(null, { status: 503, headers }),
      });
    state.errors.push(error);
    return Promise.reject(error);
  };
  return { state, fetchGrant };
}

/** The wall clock when the fake monotonic one reads 0: Tue, 14 Nov 2023 22:13:20 GMT. */
const WALL_START = 1_700_000_000_000;

function paused() {
  let time = 0;
  const warnings: string[] = [];
  const { state, fetchGrant } = fetcher();
  const pausing = pauseAfterFailure(fetchGrant, {
    now: () => time,
    wallNow: () => WALL_START + time,
    warn: (message) => warnings.push(message),
  });
  const outcome = (scope = 'a') => pausing(scope).then((grant) => grant.token, (error: unknown) => error);
  return { state, warnings, outcome, advance: (ms: number) => (time += ms) };
}

describe('pauseAfterFailure', () => {
  test('calls within the pause get the same failure at once; it doubles with each failure in a row, up to 30 s', async () => {
    const { state, outcome, advance } = paused();
    const pauses = [1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000];
    for (const [index, pause] of pauses.entries()) {
      assert.equal(await outcome(), state.errors[index], `failure ${index + 1} is thrown`);
      advance(pause - 1);
      assert.equal(await outcome(), state.errors[index], `the same failure, ${pause - 1} ms later`);
      assert.equal(state.calls.get('a'), index + 1, `no request within pause ${index + 1}`);
      advance(1);
    }
    assert.equal(await outcome(), state.errors[pauses.length], 'a request when the last pause ended');
  });

  test('a token ends the pause: the next failure pauses 1 s again', async () => {
    const { state, outcome, advance } = paused();
    for (let i = 0; i < 3; i++) {
      await outcome();
      advance(2 ** i * 1000);
    }
    state.failing = false;
    assert.equal(await outcome(), 'tok-a');
    state.failing = true;
    assert.equal(await outcome(), state.errors[3]);
    advance(999);
    assert.equal(await outcome(), state.errors[3]);
    advance(1);
    assert.equal(await outcome(), state.errors[4], 'the pause after a grant is 1 s');
    assert.equal(state.calls.get('a'), 6);
  });

  test("one scope's pause is its own: another scope still sends its request", async () => {
    const { state, outcome } = paused();
    await outcome('a');
    state.failing = false;
    assert.equal(await outcome('b'), 'tok-b');
    assert.equal(await outcome('a'), state.errors[0]);
    assert.deepEqual([...state.calls], [['a', 1], ['b', 1]]);
  });

  test("a failure whose answer asks for a longer wait (Retry-After) pauses that long, at most an hour; a shorter one keeps the pause's own", async () => {
    const rows: [string, number][] = [
      ['120', 120_000],
      ['Tue, 14 Nov 2023 22:15:20 GMT', 120_000],
      ['7200', 3_600_000],
      ['0', 1_000],
      ['soon', 1_000],
    ];
    for (const [retryAfter, pause] of rows) {
      const { state, outcome, advance } = paused();
      state.retryAfter = retryAfter;
      assert.equal(await outcome(), state.errors[0]);
      advance(pause - 1);
      assert.equal(await outcome(), state.errors[0], `Retry-After ${retryAfter}: the same failure ${pause - 1} ms later`);
      advance(1);
      assert.equal(await outcome(), state.errors[1], `Retry-After ${retryAfter}: a request after ${pause} ms`);
    }
  });

  test('a refusal of the credentials pauses 15 minutes, each time; other refusals pause as any failure', async () => {
    const rows: [{ status: number; error?: string; headers?: Record<string, string> }, string | undefined, number[]][] = [
      [{ status: 400, error: 'invalid_grant' }, undefined, [900_000, 900_000]],
      [{ status: 401, error: 'invalid_client' }, undefined, [900_000, 900_000]],
      // The contract names no error format: a 400, 401 or 403 in words of its own may refuse the credentials.
      [{ status: 400 }, undefined, [900_000, 900_000]],
      [{ status: 401 }, undefined, [900_000, 900_000]],
      [{ status: 403 }, undefined, [900_000, 900_000]],
      [{ status: 401, error: 'authentication_failed' }, undefined, [900_000, 900_000]], // an error code of its own
      // A Bearer challenge is a service's 401 (SLICER_AUTH_URL names a service); OAuth's other errors name other causes.
      [{ status: 401, headers: { 'www-authenticate': 'Bearer realm="api"' } }, undefined, [1_000, 2_000]],
      [{ status: 400, error: 'invalid_request' }, undefined, [1_000, 2_000]],
      [{ status: 400, error: 'unsupported_grant_type' }, undefined, [1_000, 2_000]],
      [{ status: 401, error: 'unauthorized_client' }, undefined, [1_000, 2_000]],
      [{ status: 404 }, undefined, [1_000, 2_000]],
      [{ status: 429, error: 'invalid_grant' }, '3600', [3_600_000, 3_600_000]], // a locked account that says for how long
      [{ status: 400, error: 'invalid_scope' }, undefined, [1_000, 2_000]],
      [{ status: 429, error: 'slow_down' }, undefined, [1_000, 2_000]],
    ];
    for (const [refusal, retryAfter, pauses] of rows) {
      const { state, outcome, advance } = paused();
      Object.assign(state, { refusal, retryAfter });
      for (const [index, pause] of pauses.entries()) {
        assert.equal(await outcome(), state.errors[index]);
        advance(pause - 1);
        assert.equal(await outcome(), state.errors[index], `${refusal.status} ${refusal.error}: the same failure ${pause - 1} ms later`);
        advance(1);
      }
      assert.equal(await outcome(), state.errors[pauses.length], `${refusal.status} ${refusal.error}: a request after each pause`);
    }
  });

  test('a pause that refuses calls is told once, with the code and how long; one that refuses none is not told', async () => {
    const { warnings, outcome, advance } = paused();
    await outcome();
    advance(1_000);
    assert.deepEqual(warnings, [], 'no call was refused in the first pause');
    await outcome();
    advance(500);
    await outcome();
    await outcome();
    assert.deepEqual(warnings, [
      `The last token request for scope "a" failed (${ErrorCode.TOKEN_ENDPOINT_UNAVAILABLE}); ` +
      'giving that failure again for 2 s without a new request',
    ]);
  });

  test('a pause after a refusal says why it is long: the credentials were refused, or an answer they may have caused', async () => {
    const rows: [{ status: number; error?: string }, string][] = [
      [{ status: 400, error: 'invalid_grant' }, 'the credentials were refused'],
      [{ status: 401 }, 'a 401 without an OAuth error, as refused credentials may be answered'],
      [{ status: 400 }, 'a 400 without an OAuth error, as refused credentials may be answered'],
    ];
    for (const [refusal, why] of rows) {
      const { state, warnings, outcome } = paused();
      state.refusal = refusal;
      await outcome();
      await outcome();
      assert.deepEqual(warnings, [
        `The last token request for scope "a" failed (${ErrorCode.TOKEN_REQUEST_REJECTED}); giving that failure again for 900 s ` +
        `without a new request (${why}: sent again sooner, they could lock the account)`,
      ]);
    }
  });
});

test('a failure that is no AuthError is told by the code UNKNOWN', async () => {
  const warnings: string[] = [];
  const pausing = pauseAfterFailure(() => Promise.reject(new TypeError('boom')), {
    now: () => 0,
    wallNow: () => WALL_START,
    warn: (m) => warnings.push(m),
  });
  for (let i = 0; i < 2; i++) await assert.rejects(pausing('a'), TypeError);
  assert.deepEqual(warnings, [
    'The last token request for scope "a" failed (UNKNOWN); giving that failure again for 1 s without a new request',
  ]);
});

test('a rejection that is no object at all is given again as it is', async () => {
  const pausing = pauseAfterFailure(() => Promise.reject(undefined), { now: () => 0, wallNow: () => WALL_START, warn: () => {} });
  for (let i = 0; i < 2; i++) assert.equal(await pausing('a').then(() => 'granted', (error: unknown) => error), undefined);
});

describe('a client whose password is refused', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(() => h.close());
  beforeEach(() => h.sandbox.store.reset()); // no failed login or token left by another test

  test('a caller calling on in a loop for an hour sends one token request per 15 minutes, and the account is not locked', async () => {
    const events: AuthEvent[] = [];
    const client = h.client({ password: 'wrong-password', tokenRetries: 0, onEvent: (event) => events.push(event) });
    const requests = () => events.filter((event) => event.type === 'token.request').length;
    // One call a second for an hour (the sandbox locks an account after 5 failed logins within 5 minutes).
    const sent: number[] = [];
    for (let second = 0; second < 3_600; second++) {
      const error = await client.getToken().catch((e: unknown) => e);
      assert.equal((error as { code?: string }).code, ErrorCode.TOKEN_REQUEST_REJECTED, `call ${second + 1}`);
      if (requests() > sent.length) sent.push(second);
      h.advance(1);
    }
    assert.deepEqual(sent, [0, 900, 1_800, 2_700], 'a token request every 15 minutes, none between');
    assert.match(
      h.warnings.find((warning) => warning.includes('giving that failure again')) ?? '',
      /failed \(TOKEN_REQUEST_REJECTED\); giving that failure again for 899 s without a new request \(the credentials were refused: sent again sooner, they could lock the account\)$/,
    );
    const right = h.client();
    assert.match(await right.getToken(), /\S/, 'the right password still gets a token: the account was not locked');
    await Promise.all([client.close(), right.close()]);
  });
});
