/**
 * The token source against a raw loopback server that answers each request
 * with bytes the test writes (exact status lines, stalled bodies, held
 * connections), on a fake clock: what it sends, what it reports in events,
 * every message of a failure, retries, and the low-level cause of a network
 * failure.
 */
import assert from 'node:assert/strict';
import { createServer, type Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { ErrorCode, isAuthError, TokenEndpointUnavailableError, TokenRequestRejectedError } from '../errors.ts';
import type { AuthEvent } from '../events.ts';
import { MAX_ANSWER_BYTES } from './grant_body.ts';
import { networkCause } from './network_cause.ts';
import { redactor, Secret } from '../redact.ts';
import { createFakeClock, type FakeClock } from '../testing/fake_clock.ts';
import { createTokenSource, retryWait, type TokenSourceOptions } from './token_source.ts';

const SCOPE = 'service_id=s';
const GOOD = JSON.stringify({ access_token: 'tok', token_type: 'Bearer', expires_in: '3600', scope: SCOPE });
/** The fix a 429 ends with, word for word. */
const RATE_FIX = '; the token endpoint limits how often it is asked (429): wait as long as it asks, then run again; ' +
  'processes that use this account can share tokens (SLICER_CACHE_FILE or SLICER_STORE_URL)';

/** What one request got: its head and body as received, and the socket to answer on. */
interface Received {
  head: string;
  body: string;
  socket: Socket;
}
type Answer = (received: Received) => void;

/** Writes a whole HTTP/1.1 answer and closes the connection. */
const reply = (statusLine: string, body = '', type = 'application/json'): Answer => ({ socket }) =>
  socket.end(
    `HTTP/1.1 ${statusLine}\r\ncontent-type: ${type}\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );

let port = 0;
const answers: Answer[] = [];
const received: Received[] = [];
const held: Socket[] = [];
const server = createServer((socket) => {
  held.push(socket);
  socket.on('error', () => undefined); // a client may hang up mid-answer (one refused as too large)
  let data = '';
  socket.on('data', (chunk) => {
    data += chunk.toString('latin1');
    const end = data.indexOf('\r\n\r\n');
    const length = Number(/content-length: *(\d+)/i.exec(data)?.[1] ?? 0);
    if (end < 0 || data.length < end + 4 + length) return;
    const request = { head: data.slice(0, end), body: data.slice(end + 4, end + 4 + length), socket };
    data = '';
    received.push(request);
    (answers.shift() ?? reply('500 Internal Server Error', 'no answer queued'))(request);
  });
});
before(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
});
after(() => {
  for (const socket of held) socket.destroy();
  server.close();
});

/** A token source on a fake clock whose answers are `queued`, in order; `random` 0 makes retries immediate. */
function source(queued: Answer[], overrides: Partial<TokenSourceOptions> = {}) {
  answers.length = 0;
  received.length = 0;
  answers.push(...queued);
  const clock: FakeClock = createFakeClock();
  const events: AuthEvent[] = [];
  const fetchGrant = createTokenSource({
    authUrl: `http://127.0.0.1:${port}`,
    username: 'alice',
    password: new Secret('pw-S3CRET'),
    fetch: (input, init) => fetch(input, init),
    clock,
    random: () => 0,
    retries: 0,
    emit: (event) => events.push(event),
    ...overrides,
  });
  return { clock, events, get: () => fetchGrant(SCOPE) };
}

/** The error a grant request ends with. */
const failure = (s: ReturnType<typeof source>) =>
  s.get().then(
    () => assert.fail('expected a failure'),
    (error: unknown) => {
      assert.ok(isAuthError(error), String(error));
      return error;
    },
  );

const where = () => `Cannot get a token for scope "${SCOPE}" from http://127.0.0.1:${port}/oauth2/token/`;

describe('token source on the wire', () => {
  test('the grant is a form POST to /oauth2/token/ with the form content type set explicitly and JSON asked for', async () => {
    const s = source([reply('200 OK', GOOD)]);
    assert.equal((await s.get()).token, 'tok');
    const [request] = received;
    assert.ok(request);
    assert.match(request.head, /^POST \/oauth2\/token\/ HTTP\/1\.1\r\n/);
    assert.match(request.head, /\r\ncontent-type: application\/x-www-form-urlencoded\r\n/i);
    assert.match(request.head, /\r\naccept: application\/json\r\n/i);
    assert.deepEqual(Object.fromEntries(new URLSearchParams(request.body)), {
      grant_type: 'password',
      username: 'alice',
      password: 'pw-S3CRET',
      scope: SCOPE,
    });
  });

  test("the answer keeps the endpoint's URL: a relative redirect is named whole, and an auth URL ending in /oauth2 is told", async () => {
    const redirect: Answer = ({ socket }) =>
      socket.end('HTTP/1.1 302 Found\r\nlocation: /accounts/login/?next=x\r\ncontent-length: 0\r\nconnection: close\r\n\r\n');
    const moved = await failure(source([redirect]));
    assert.equal((moved as { location?: string }).location, `http://127.0.0.1:${port}/accounts/login/`);
    const doubled = source([reply('404 Not Found', '<h1>Not Found</h1>', 'text/html')], { authUrl: `http://127.0.0.1:${port}/oauth2` });
    const error = await failure(doubled);
    assert.match(received[0]?.head ?? '', /^POST \/oauth2\/oauth2\/token\/ HTTP\/1\.1\r\n/);
    assert.equal(
      error.message,
      `Cannot get a token for scope "${SCOPE}": the token endpoint answered 404; ` +
        'SLICER_AUTH_URL ends in /oauth2, and the client appends /oauth2/token/ to it: remove the /oauth2',
    );
  });

  test('token.request events time the request on the injected clock and carry the status, on success and on failure', async () => {
    const late = (answer: Answer): Answer => (request) => (s.clock.advance(250), answer(request));
    const s = source([late(reply('200 OK', GOOD)), late(reply('200 OK', '{"token_type": "Bearer"}'))]);
    s.clock.advance(10_000);
    await s.get();
    await failure(s);
    const url = `http://127.0.0.1:${port}/oauth2/token/`;
    assert.deepEqual(s.events, [
      { type: 'token.request', scope: SCOPE, url, durationMs: 250, outcome: 'ok', status: 200 },
      { type: 'token.request', scope: SCOPE, url, durationMs: 250, outcome: 'TOKEN_RESPONSE_INVALID', status: 200 },
    ]);
  });

  test('a 5xx with OAuth fields is unavailable, naming the status, the fields and the empty reason phrase trimmed', async () => {
    const s = source([reply('503 ', JSON.stringify({ error: 'temporarily_unavailable', error_description: 'maintenance' }))]);
    const error = await failure(s);
    assert.ok(error instanceof TokenEndpointUnavailableError);
    assert.equal(error.message, `${where()}: the token endpoint answered 503 temporarily_unavailable: maintenance`);
    assert.equal(error.status, 503);
  });

  test('the password is redacted from what a failing endpoint says, in every form', async () => {
    const said = JSON.stringify({ error: 'temporarily_unavailable', error_description: 'cannot check pw-S3CRET now (pw-S3CRET)' });
    const error = await failure(source([reply('503 Service Unavailable', said)]));
    assert.equal(
      error.message,
      `${where()}: the token endpoint answered 503 Service Unavailable temporarily_unavailable: cannot check [redacted] now ([redacted])`,
    );
  });

  test("the caller's other secrets are redacted as the password is: from a refusal's words, and from a network failure and its cause", async () => {
    const redact = redactor(['perm-T0KEN']);
    const said = JSON.stringify({ error: 'invalid_grant', error_description: 'pw-S3CRET and perm-T0KEN do not match' });
    const refusal = await failure(source([reply('400 Bad Request', said)], { redact }));
    assert.equal(
      refusal.message,
      `Cannot get a token for scope "service_id=s": the token endpoint answered 400 invalid_grant: [redacted] and [redacted] do not match; the credentials were refused: check SLICER_USERNAME and SLICER_PASSWORD`,
    );
    const fetch = () => Promise.reject(new TypeError('Failed to fetch perm-T0KEN', { cause: new Error('inner perm-T0KEN pw-S3CRET') }));
    const failed = await failure(source([], { fetch, redact }));
    assert.equal(
      failed.message,
      `${where()}: cannot reach 127.0.0.1:${port} (inner [redacted] [redacted]): Failed to fetch [redacted]; ` +
        'check SLICER_AUTH_URL and that the authorization service is up',
    );
    assert.equal((failed.cause as Error).message, 'Failed to fetch [redacted]');
    assert.equal(((failed.cause as Error).cause as Error).message, 'inner [redacted] [redacted]');
  });

  test('a 500 carrying an OAuth error is unavailable, not a refusal', async () => {
    const error = await failure(source([reply('500 Internal Server Error', '{"error": "server_error"}')]));
    assert.ok(error instanceof TokenEndpointUnavailableError);
    assert.equal(error.message, `${where()}: the token endpoint answered 500 Internal Server Error server_error`);
  });

  test('an answer that stays unavailable names how often it was asked again: no retry is said when none was made', async () => {
    const down = () => reply('503 Service Unavailable', 'down', 'text/plain');
    const twice = await failure(source([down(), down(), down()], { retries: 2 }));
    assert.equal(received.length, 3);
    assert.equal(twice.message, `${where()}: the token endpoint answered 503 Service Unavailable (said: down) after 2 retries`);
    const once = await failure(source([down(), down()], { retries: 1 }));
    assert.equal(received.length, 2);
    assert.equal(once.message, `${where()}: the token endpoint answered 503 Service Unavailable (said: down) after 1 retry`);
    const none = await failure(source([down()]));
    assert.equal(received.length, 1);
    assert.equal(none.message, `${where()}: the token endpoint answered 503 Service Unavailable (said: down)`);
  });

  test('a 429 without OAuth fields is unavailable; with an OAuth error it is a refusal', async () => {
    const busy = await failure(source([reply('429 Too Many Requests', 'slow down', 'text/plain')]));
    assert.ok(busy instanceof TokenEndpointUnavailableError);
    assert.equal(busy.message, `${where()}: the token endpoint answered 429 Too Many Requests (said: slow down)${RATE_FIX}`);
    const locked = await failure(
      source([reply('429 Too Many Requests', JSON.stringify({ error_description: 'wait', error: 'invalid_grant' }))]),
    );
    assert.ok(locked instanceof TokenRequestRejectedError);
    assert.equal(
      locked.message,
      `${where()}: the token endpoint answered 429 Too Many Requests invalid_grant: wait; the credentials were refused: ` +
        'check SLICER_USERNAME and SLICER_PASSWORD',
    );
    assert.equal(locked.status, 429);
    const scope = reply('429 Too Many Requests', '{"error":"invalid_scope"}');
    const refusedScope = await failure(source([scope, scope], { retries: 1 }));
    assert.equal(
      refusedScope.message,
      `${where()}: the token endpoint answered 429 Too Many Requests invalid_scope after 1 retry; the scope was refused: ` +
        'check the service id it names (SLICER_SERVICE_ID or SLICER_PREDICT_SERVICE_ID), and that this user may use that service',
    );
  });

  test('an answer asking for a longer wait than 30 s (Retry-After) is not asked again; it says how long it asked for', async () => {
    /** An answer whose `Retry-After` is `after`. */
    const asking = (statusLine: string, after: string, body: string): Answer => ({ socket }) =>
      socket.end(
        `HTTP/1.1 ${statusLine}\r\ncontent-type: application/json\r\nretry-after: ${after}\r\n` +
          `content-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`,
      );
    const limited = await failure(source([asking('429 Too Many Requests', '3600', '{"error": "slow_down"}')], { retries: 2 }));
    assert.equal(received.length, 1, 'one request: no retry sooner than asked');
    assert.ok(limited instanceof TokenRequestRejectedError);
    assert.equal(
      limited.message,
      `${where()}: the token endpoint answered 429 Too Many Requests slow_down; ` +
        `it asks for 3600 s before the next request (Retry-After), so it was not asked again${RATE_FIX}`,
    );
    // An HTTP date, read against the injected wall clock (1_700_000_000_000 is Tue, 14 Nov 2023 22:13:20 GMT).
    const down = await failure(source([asking('503 Service Unavailable', 'Tue, 14 Nov 2023 22:13:51 GMT', '{}')], { retries: 2 }));
    assert.equal(received.length, 1);
    assert.equal(
      down.message,
      `${where()}: the token endpoint answered 503 Service Unavailable; ` +
        'it asks for 31 s before the next request (Retry-After), so it was not asked again',
    );
    const soon = source([asking('503 Service Unavailable', '0', '{}'), reply('200 OK', GOOD)], { retries: 2 });
    assert.equal((await soon.get()).token, 'tok', 'a wait within 30 s is waited, then asked again');
    assert.equal(received.length, 2);
    // Exactly 30 s is within what is waited: with no retries left, the usual words.
    const full = await failure(source([asking('503 Service Unavailable', '30', '{}')]));
    assert.equal(full.message, `${where()}: the token endpoint answered 503 Service Unavailable`);
  });

  test("retries wait a random share of ky's backoff, drawn from the injected source", async () => {
    const draws: number[] = [];
    const s = source([reply('502 Bad Gateway'), reply('502 Bad Gateway'), reply('200 OK', GOOD)], {
      retries: 2,
      random: () => (draws.push(0), 0),
    });
    assert.equal((await s.get()).token, 'tok');
    assert.equal(received.length, 3);
    assert.deepEqual(draws, [0, 0], 'one draw per wait');
  });

  test('a retry waits the drawn share of the backoff: 0.25 of 800 ms is 200 ms', () => {
    assert.equal(retryWait(800, () => 0.25), 200);
    assert.equal(retryWait(800, () => 0), 0);
  });

  test('a request that gets no answer in time is retried', async () => {
    // ky's timeout runs on the real clock (it takes no injected one): 2 s leaves a loaded machine room.
    const s = source([() => {}, reply('200 OK', GOOD)], { retries: 1, timeoutMs: 2_000 });
    assert.equal((await s.get()).token, 'tok');
    assert.equal(received.length, 2);
  });

  test('a body that stalls is a timeout once the clock passes the limit, and no wait is left behind on success', async () => {
    const stall: Answer = ({ socket }) => socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{');
    const s = source([stall], { timeoutMs: 5_000 });
    const pending = failure(s);
    while (received.length === 0 || s.clock.pending() === 0) await new Promise((resolve) => setImmediate(resolve));
    s.clock.advance(5_000);
    const error = await pending;
    assert.equal(error.message, `${where()}: no complete answer within 5000 ms (timeout)`);
    const ok = source([reply('200 OK', GOOD)]);
    await ok.get();
    assert.equal(ok.clock.pending(), 0, "the body's time limit is cancelled once it arrived");
  });

  test('an answer over 1 MiB is no token answer: refused at the byte past it, without a retry', async () => {
    const tooLarge = `${where()}: the token endpoint answered 200 with more than 1 MiB, which no token answer is; check SLICER_AUTH_URL`;
    const head = 'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n';
    // Declared by its length and sent whole.
    const declared = reply('200 OK', ' '.repeat(2 * MAX_ANSWER_BYTES));
    // Streamed without a length, one byte past the limit, then held open for 2 s (and ended, so that a client that
    // waits for the end fails rather than hangs): only counting ends it sooner.
    const streamed: Answer = ({ socket }) => {
      socket.write(`${head}transfer-encoding: chunked\r\n\r\n`);
      for (let sent = 0; sent <= MAX_ANSWER_BYTES; sent += 64 * 1024) {
        const size = Math.min(64 * 1024, MAX_ANSWER_BYTES + 1 - sent);
        socket.write(`${size.toString(16)}\r\n${' '.repeat(size)}\r\n`);
      }
      setTimeout(() => socket.destroyed || socket.end('0\r\n\r\n'), 2_000).unref();
    };
    for (const answer of [declared, streamed]) {
      const error = await failure(source([answer, reply('200 OK', GOOD)], { retries: 1 }));
      assert.equal(error.code, ErrorCode.TOKEN_RESPONSE_INVALID);
      assert.equal(error.message, tooLarge);
      assert.equal(received.length, 1, 'not asked again');
    }
    const whole = GOOD.padEnd(MAX_ANSWER_BYTES, ' ');
    assert.equal((await source([reply('200 OK', whole)]).get()).token, 'tok', 'exactly 1 MiB is read');
  });

  test('a body is decoded as UTF-8 across the pieces it arrives in', async () => {
    const body = Buffer.from(JSON.stringify({ access_token: 'tok\u00e9', token_type: 'Bearer', expires_in: '3600', scope: SCOPE }));
    const split = body.indexOf(0xc3) + 1; // between the two bytes of "é"
    const s = source([({ socket }) => {
      socket.write(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n`);
      socket.write(body.subarray(0, split));
      setTimeout(() => socket.end(body.subarray(split)), 20);
    }]);
    assert.equal((await s.get()).token, 'tok\u00e9');
  });

  test('an answer without a content type is read as having none, not as the text its buffered copy is made from', async () => {
    const untyped = await failure(
      source([({ socket }) => socket.end('HTTP/1.1 200 OK\r\ncontent-length: 9\r\nconnection: close\r\n\r\ntoken=abc')]),
    );
    assert.equal(
      untyped.message,
      `Cannot get a token for scope "${SCOPE}": the token endpoint answered 200 with a body that is not JSON ` +
        '(content type "no content type"), not a JSON token response; check SLICER_AUTH_URL',
    );
  });

  test('a 204 is a 2xx without a token response; a 304 is a redirect to nowhere', async () => {
    const empty = await failure(source([({ socket }) => socket.end('HTTP/1.1 204 No Content\r\nconnection: close\r\n\r\n')]));
    assert.equal(
      empty.message,
      `Cannot get a token for scope "${SCOPE}": the token endpoint answered 204 with a body that is not JSON ` +
        '(content type "no content type"), not a JSON token response; check SLICER_AUTH_URL',
    );
    const notModified = await failure(source([({ socket }) => socket.end('HTTP/1.1 304 Not Modified\r\nconnection: close\r\n\r\n')]));
    assert.equal(notModified.code, 'TOKEN_ENDPOINT_REDIRECT');
    assert.match(notModified.message, /answered 304, a redirect to nowhere; /);
  });

  test('a network failure names the host and the low-level reason, and keeps a redacted copy of the cause', async () => {
    const s = source([], { authUrl: 'http://127.0.0.1:9' });
    const error = await failure(s);
    assert.match(
      error.message,
      /^Cannot get a token for scope "service_id=s" from http:\/\/127\.0\.0\.1:9\/oauth2\/token\/: cannot reach 127\.0\.0\.1:9 \(bad port\): fetch failed; check SLICER_AUTH_URL and that the authorization service is up$/,
    );
    assert.ok(error.cause instanceof Error);
    assert.equal(error.cause.message, 'fetch failed');
  });

  test("a runtime's fetch error without a cause is shown by its own message", async () => {
    const s = source([], { fetch: () => Promise.reject(new TypeError('Failed to fetch')) });
    const error = await failure(s);
    assert.equal(error.message, `${where()}: cannot reach 127.0.0.1:${port}: Failed to fetch`);
  });
});

describe('networkCause', () => {
  const chain = (...links: (Error & { code?: string })[]) => {
    for (let i = 0; i < links.length - 1; i++) (links[i] as Error).cause = links[i + 1];
    return links[0];
  };
  const coded = (message: string, code: string) => Object.assign(new Error(message), { code });

  test("a code in the chain, however deep up to five links; undici's generic socket code is passed over", () => {
    assert.equal(networkCause(chain(new TypeError('fetch failed'), coded('connect ECONNREFUSED', 'ECONNREFUSED'))), 'ECONNREFUSED');
    const deep = (depth: number) => chain(...Array.from({ length: depth }, (_, i) => new Error(`link ${i}`)), coded('x', 'EDEEP'));
    assert.equal(networkCause(deep(4)), 'EDEEP', 'the fifth link');
    assert.equal(networkCause(deep(5)), 'link 4', 'a sixth link is not read');
    assert.equal(networkCause(chain(new TypeError('fetch failed'), coded('other side closed', 'UND_ERR_SOCKET'))), 'other side closed');
  });

  test("Deno's and Bun's words, lower-cased; else the deepest cause's own message, cut at 120 characters; never the top message", () => {
    assert.equal(
      networkCause(chain(new TypeError('error sending request'), new Error('Connection Refused (os error 111)'))),
      'connection refused',
    );
    assert.equal(
      networkCause(new TypeError('Fetch failed: Requests to port 1 are blocked')),
      'requests to port 1 are blocked',
      "Deno's words for a blocked port, in the top message",
    );
    assert.equal(networkCause(new TypeError('Fetch failed: Requests to port 6000 are blocked')), 'requests to port 6000 are blocked');
    assert.equal(networkCause(chain(new TypeError('fetch failed'), new Error('bad port'))), 'bad port');
    assert.equal(networkCause(chain(new TypeError('fetch failed'), new Error('x'.repeat(200)))), 'x'.repeat(120));
    assert.equal(networkCause(new TypeError('fetch failed')), undefined);
    assert.equal(networkCause(chain(new TypeError('fetch failed'), new Error(''))), undefined);
    assert.equal(networkCause('not an error'), undefined);
  });
});
