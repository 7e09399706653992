/**
 * What createAuthClient hands the layers it wires: its clock's wall time to
 * the pause after a failure (a `Retry-After` date) and to the file store
 * (which drops what has ended), and, without a logger, the console with the
 * module's name. Against the sandbox, with the harness's monotonic clock.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, beforeEach, test } from 'node:test';
import { systemClock } from './clock.ts';
import { type Harness, startHarness } from './testing/sandbox_harness.ts';
import { scratchDir } from './testing/scratch.ts';

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(() => h.close());
beforeEach(() => {
  h.sandbox.store.reset();
  h.warnings.length = 0;
});

/** A wall clock stopped at noon, 1 January 2030 (UTC). */
const WALL = Date.UTC(2030, 0, 1, 12);
const stopped = { ...systemClock, wallNow: () => WALL };

test("a Retry-After date is read on the client's wall clock: the failure is given again, without a request, until then", async () => {
  const retryAfter = new Date(WALL + 300_000).toUTCString();
  h.sandbox.store.addFault({ status: 503, body: '{}', headers: { 'retry-after': retryAfter }, times: 1 });
  const client = h.client({ clock: stopped, tokenRetries: 0 });
  await assert.rejects(client.getToken(), { code: 'TOKEN_ENDPOINT_UNAVAILABLE' });
  h.advance(299);
  await assert.rejects(client.getToken(), { code: 'TOKEN_ENDPOINT_UNAVAILABLE' });
  assert.deepEqual(h.warnings, [
    `The last token request for scope "service_id=${h.sandbox.env.SLICER_SERVICE_ID}" failed (TOKEN_ENDPOINT_UNAVAILABLE); ` +
    'giving that failure again for 1 s without a new request',
  ]);
  h.advance(1);
  assert.equal((await client.getTokenInfo()).source, 'request');
});

test("a cache file keeps every token still valid on the writer's wall clock, and drops those that have ended", async () => {
  const file = join(scratchDir('wiring-'), 'tokens.json');
  const source = (client: ReturnType<Harness['client']>, scope: 'slicer' | 'predict') =>
    client.getTokenInfo(scope).then((info) => info.source);
  assert.equal(await source(h.client({ cacheFile: file }), 'slicer'), 'request');
  assert.equal(await source(h.client({ cacheFile: file }), 'predict'), 'request');
  assert.equal(await source(h.client({ cacheFile: file }), 'slicer'), 'file', "the predict token's write kept the slicer token");
  // Two hours on, by this client's wall clock: both tokens have ended. Its write keeps only its own new token.
  assert.equal(
    await source(h.client({ cacheFile: file, clock: { ...systemClock, wallNow: () => systemClock.wallNow() + 7_200_000 } }), 'slicer'),
    'request',
  );
  assert.equal(await source(h.client({ cacheFile: file }), 'predict'), 'request', 'the ended predict token was dropped');
});

test('without a logger, lines go to the console with the module name: warnings to console.warn, the rest to standard error', async (t) => {
  const error = t.mock.method(console, 'error', () => undefined);
  const warn = t.mock.method(console, 'warn', () => undefined);
  const client = h.client({ logger: undefined, logLevel: 'debug', allowedOrigins: undefined });
  await client.getToken();
  // The slicing service's token, sent to the prediction service (the same origin): refused, and refused again.
  assert.equal((await client.tokenFetch(`${h.sandbox.env.SLICER_PREDICT_BASE_URL}/x`, { scope: 'slicer' })).status, 401);
  await client.authedFetch('http://127.0.0.1:9/elsewhere').catch(() => undefined);
  const scope = `service_id=${h.sandbox.env.SLICER_SERVICE_ID}`;
  const request = `[slicer-auth] Token request for scope "${scope}": ok (200) in N ms`;
  assert.deepEqual(error.mock.calls.map((call) => String(call.arguments[0]).replace(/ in \d+ ms$/, ' in N ms')), [
    request,
    `[slicer-auth] Token for scope "${scope}" from memory`,
    `[slicer-auth] A service answered 401 for scope "${scope}"; retrying once with a new token`,
    request,
    `[slicer-auth] A service answered 401 for scope "${scope}" again; giving up`,
  ]);
  assert.equal(warn.mock.callCount(), 1);
  assert.match(String(warn.mock.calls[0]?.arguments[0]), /^\[slicer-auth\] Sent GET http:\/\/127\.0\.0\.1:9 without the token/);
});
