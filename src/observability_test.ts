/**
 * Seeing and steering what a client does: typed events, log levels,
 * OpenTelemetry spans and metrics, `getTokenInfo`, cancellation and
 * `forceRefresh`, against the sandbox.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { inspect } from 'node:util';
import process from 'node:process';
import { describe, test } from 'node:test';
import { metrics, trace } from '@opentelemetry/api';
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { systemClock } from './clock.ts';
import type { AuthEvent } from './events.ts';
import { createMemoryStore } from './stores/memory.ts';
import { createEmitter } from './telemetry/telemetry.ts';
import { eventually } from './testing/eventually.ts';
import { runProcess } from './testing/processes.ts';
import { harnessForFile } from './testing/sandbox_harness.ts';
import { scratchDir } from './testing/scratch.ts';

const h = harnessForFile();

const SLICER = () => `service_id=${h.sandbox.env.SLICER_SERVICE_ID}`;

describe('events', () => {
  test('a listener that throws, an async one that rejects and a logger that throws fail no request and leave no unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', record);
    try {
      const fail = () => {
        throw new Error('the listener failed');
      };
      for (const onEvent of [fail, async () => fail()]) {
        const client = h.client({ onEvent });
        assert.equal((await client.tokenFetch('events')).status, 200);
        await client.close();
      }
      // The second call is refused from the pause, whose warning the logger fails on: the pause's error is still given.
      const logger = { warn: fail, info: fail, debug: fail, error: fail };
      const failing = h.client({ authUrl: 'http://127.0.0.1:9', logger, logLevel: 'debug', tokenRetries: 0 });
      await assert.rejects(failing.getToken(), { code: 'TOKEN_ENDPOINT_UNAVAILABLE' });
      await assert.rejects(failing.getToken(), { code: 'TOKEN_ENDPOINT_UNAVAILABLE' });
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(unhandled, []);
    } finally {
      process.off('unhandledRejection', record);
    }
  });

  test('a token request, a memory hit, a refresh, a 401 and its retry, each as a typed event with no secret', async () => {
    h.sandbox.store.setLifetime(60);
    const events: AuthEvent[] = [];
    const client = h.client({ onEvent: (event) => events.push(event) });
    const token = await client.getToken();
    await client.getToken();
    h.advance(40); // in the 30 s margin of a 60 s token: a background refresh
    await client.getToken();
    await eventually(() => events.filter((e) => e.type === 'token.request').length === 2, 'the background refresh');
    h.sandbox.store.revoke(h.sandbox.env.SLICER_USERNAME, h.sandbox.store.list(h.sandbox.env.SLICER_USERNAME, 'temporary')[0]?.id ?? '');
    await client.authedFetch('events').json();
    const request = events.find((e) => e.type === 'token.request');
    assert.deepEqual({ ...request, durationMs: 0 }, {
      type: 'token.request',
      scope: SLICER(),
      url: `${h.sandbox.env.SLICER_AUTH_URL}/oauth2/token/`,
      durationMs: 0,
      outcome: 'ok',
      status: 200,
    });
    assert.deepEqual(events.find((e) => e.type === 'token.cached'), { type: 'token.cached', scope: SLICER(), layer: 'memory' });
    const refresh = events.find((e) => e.type === 'token.refresh');
    assert.deepEqual({ ...refresh, remainingMs: 0 }, {
      type: 'token.refresh',
      scope: SLICER(),
      reason: 'margin',
      remainingMs: 0,
      marginMs: 31_500, // a 60 s token: the 300 s margin capped at 30 s, plus 10 % × 0.5 of jitter
    });
    assert.deepEqual(events.filter((e) => e.type === 'token.unauthorized'), [{
      type: 'token.unauthorized',
      scope: SLICER(),
      retried: true,
    }]);
    const all = JSON.stringify(events);
    assert.ok(!all.includes(token) && !all.includes(h.sandbox.env.SLICER_PASSWORD), 'no token and no password in any event');
  });

  test('a request that carries a cached token reports one hit, by authedFetch as by tokenFetch; one sent to another origin, none', async () => {
    const hits: string[] = [];
    const onEvent = (e: AuthEvent) => e.type === 'token.cached' && hits.push(`${e.layer} ${e.scope}`);
    const client = h.client({ allowedOrigins: undefined, onEvent });
    await client.getToken();
    hits.length = 0;
    await client.authedFetch('jobs').json();
    await client.authedFetch.post('jobs', { json: { model: 'part.stl' } }).json();
    assert.equal((await client.tokenFetch('jobs')).status, 200);
    assert.deepEqual(hits, [`memory ${SLICER()}`, `memory ${SLICER()}`, `memory ${SLICER()}`]);
    hits.length = 0;
    await assert.rejects(client.authedFetch('http://127.0.0.1:9/elsewhere'), TypeError);
    await assert.rejects(client.tokenFetch('http://127.0.0.1:9/elsewhere'), TypeError);
    assert.equal(hits.length, 0);
    // With a shared store, each request's token is confirmed against the store once: one hit.
    const file = join(scratchDir('hits-'), 'tokens.json');
    const shared = h.client({ cacheFile: file, onEvent });
    await shared.getToken();
    hits.length = 0;
    await shared.authedFetch('jobs').json();
    await shared.authedFetch.post('jobs', { json: { model: 'part.stl' } }).json();
    assert.deepEqual(hits, [`memory ${SLICER()}`, `memory ${SLICER()}`]);
  });

  test('a failed request reports its error code and status; a store that fails reports a fall-back; a held lock a wait', async () => {
    const events: AuthEvent[] = [];
    const failing = h.client({ password: 'wrong-password', tokenRetries: 0, onEvent: (event) => events.push(event) });
    await assert.rejects(failing.getToken(), { code: 'TOKEN_REQUEST_REJECTED' });
    assert.deepEqual(
      events.map((e) => e.type === 'token.request' && [e.outcome, e.status]),
      [['TOKEN_REQUEST_REJECTED', 400]],
    );
    const broken = {
      ...createMemoryStore(),
      description: 'a broken store',
      get: () => Promise.reject(new Error('The shared token store a broken store failed (ECONNREFUSED)')),
    };
    const fallback: AuthEvent[] = [];
    await h.client({ store: broken, onEvent: (event) => fallback.push(event) }).getToken();
    assert.deepEqual(fallback.find((e) => e.type === 'store.fallback'), {
      type: 'store.fallback',
      store: 'a broken store',
      reason: 'The shared token store a broken store failed (ECONNREFUSED)',
    });
  });
});

/** A logger that keeps each line, its level in front. */
function recording() {
  const logged: string[] = [];
  const logger = {
    error: (m: string) => logged.push(`error ${m}`),
    warn: (m: string) => logged.push(`warn ${m}`),
    info: (m: string) => logged.push(`info ${m}`),
    debug: (m: string) => logged.push(`debug ${m}`),
  };
  return { logged, logger };
}

describe('logger levels', () => {
  test('warn (default) logs no event; info logs requests and refreshes; debug also cache hits; silent not even warnings', async () => {
    const lines = (level: 'silent' | 'warn' | 'info' | 'debug') => {
      const { logged, logger } = recording();
      return { logged, client: h.client({ logger, logLevel: level, allowedOrigins: undefined }) };
    };
    const foreign = 'http://127.0.0.1:9/elsewhere';
    for (const level of ['silent', 'warn', 'info', 'debug'] as const) {
      const { logged, client } = lines(level);
      await client.getToken();
      await client.getToken();
      await client.authedFetch(foreign).catch(() => undefined); // a withheld token: one warning
      const kinds = [...new Set(logged.map((line) => line.split(' ')[0]))].sort();
      assert.deepEqual(kinds, { silent: [], warn: ['warn'], info: ['info', 'warn'], debug: ['debug', 'info', 'warn'] }[level], level);
      if (level === 'info') {
        assert.match(logged.join('\n'), /info Token request for scope "service_id=sandbox-slicer": ok \(200\) in \d+ ms/);
      }
      if (level === 'debug') assert.match(logged.join('\n'), /debug Token for scope "service_id=sandbox-slicer" from memory/);
    }
  });

  test('at debug, each event is one line at its level, word for word; a store that fails, only its warning', async () => {
    h.sandbox.store.setLifetime(60);
    const { logged, logger } = recording();
    const client = h.client({ logger, logLevel: 'debug' });
    await client.getToken();
    await client.getToken();
    h.advance(40); // 20 s left of a 60 s token: in its margin (30 s, pulled earlier by 5 %), a background refresh
    await client.getToken();
    await eventually(() => logged.filter((line) => line.startsWith('info Token request')).length === 2, 'the background refresh');
    // The slicing service's token, sent to the prediction service (the same origin): refused, and refused again.
    const refused = await client.tokenFetch(`${h.sandbox.env.SLICER_PREDICT_BASE_URL}/x`, { scope: 'slicer' });
    assert.equal(refused.status, 401);
    const down = () => Promise.reject(new Error('the store is down'));
    const store = { description: 'a store that is down', get: down, put: down, deleteIfSame: down, lock: down };
    await h.client({ logger, logLevel: 'debug', store }).getToken();
    // A token request with no answer at all: no status in its line.
    await assert.rejects(h.client({ logger, logLevel: 'debug', authUrl: 'http://127.0.0.1:9', tokenRetries: 0 }).getToken());
    const request = `info Token request for scope "${SLICER()}": ok (200) in N ms`;
    assert.deepEqual(logged.map((line) => line.replace(/ in \d+ ms$/, ' in N ms')), [
      request,
      `debug Token for scope "${SLICER()}" from memory`,
      `info Refreshing the token of scope "${SLICER()}" (margin), 20 s before expiry`,
      `debug Token for scope "${SLICER()}" from memory`,
      request,
      `debug Token for scope "${SLICER()}" from memory`,
      `info A service answered 401 for scope "${SLICER()}"; retrying once with a new token`,
      request,
      `error A service answered 401 for scope "${SLICER()}" again; giving up`,
      'warn the store is down; fetching tokens directly until the shared token store answers again',
      request,
      `info Token request for scope "${SLICER()}": TOKEN_ENDPOINT_UNAVAILABLE in N ms`,
    ]);
  });

  test("a wait for another process's token is one debug line, its time rounded", () => {
    const { logged, logger } = recording();
    const emit = createEmitter({ logger, level: 'debug', openTelemetry: false, wallNow: () => 0, redact: (text) => text });
    emit?.({ type: 'lock.wait', scope: SLICER(), waitedMs: 149.6, outcome: 'read' });
    assert.deepEqual(logged, [`debug Waited 150 ms for another process's token for scope "${SLICER()}" (read)`]);
  });

  test("without a logger, every line goes to standard error: a script's standard output stays its own", async () => {
    const script = "const { createAuthClient } = await import('./mod.ts'); const client = createAuthClient(); " +
      "await client.getToken(); await client.getToken(); await client.authedFetch('http://127.0.0.1:9/elsewhere').catch(() => {}); " +
      "await client.close(); console.log('the script output');";
    const run = await runProcess(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      PATH: process.env.PATH,
      SLICER_ENV_FILE: '/dev/null',
      ...h.sandbox.env,
      SLICER_LOG_LEVEL: 'debug',
    });
    assert.equal(run.code, 0, run.err);
    assert.equal(run.out, 'the script output\n');
    const lines = run.err.split('\n').filter(Boolean);
    assert.match(lines[0] ?? '', /^\[slicer-auth\] Token request for scope "service_id=sandbox-slicer": ok \(200\) in \d+ ms$/);
    assert.equal(lines[1], '[slicer-auth] Token for scope "service_id=sandbox-slicer" from memory');
    assert.match(lines.at(-1) ?? '', /^\[slicer-auth\] Sent GET http:\/\/127\.0\.0\.1:9 without the token/);
  });

  test('SLICER_LOG_LEVEL sets the level; a wrong value names the variable', () => {
    assert.throws(
      () => h.client({ env: { ...h.sandbox.env, SLICER_LOG_LEVEL: 'loud' } }),
      /SLICER_LOG_LEVEL: expected silent, error, warn, info or debug/,
    );
  });
});

describe('OpenTelemetry (installed here as a dev dependency)', () => {
  test('a span per token request with the HTTP client conventions, and counters; no attribute holds a secret', async () => {
    const spans = new InMemorySpanExporter();
    const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
    trace.setGlobalTracerProvider(tracer);
    const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
    const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
    const meters = new MeterProvider({ readers: [reader] });
    metrics.setGlobalMeterProvider(meters);
    try {
      const wall = Date.UTC(2030, 0, 1, 12); // the client's wall clock, stopped: a span ends when its event arrives
      const client = h.client({ clock: { ...systemClock, wallNow: () => wall } });
      const token = await client.getToken();
      await client.getToken();
      await assert.rejects(h.client({ password: 'wrong-password', tokenRetries: 0 }).getToken());
      await eventually(() => spans.getFinishedSpans().length === 2, 'two spans');
      const [ok, refused] = spans.getFinishedSpans();
      const port = Number(new URL(h.sandbox.env.SLICER_AUTH_URL).port);
      assert.equal(ok?.name, 'POST');
      assert.deepEqual(ok?.endTime, [wall / 1000, 0]);
      assert.deepEqual(ok?.attributes, {
        'http.request.method': 'POST',
        'server.address': '127.0.0.1',
        'server.port': port,
        'http.response.status_code': 200,
        'url.full': `${h.sandbox.env.SLICER_AUTH_URL}/oauth2/token/`,
        'slicer_auth.scope': SLICER(),
      });
      assert.equal(refused?.attributes['error.type'], 'TOKEN_REQUEST_REJECTED');
      assert.equal(refused?.status.code, 2, 'an error status');
      await reader.forceFlush();
      const points = exporter.getMetrics().flatMap((m) => m.scopeMetrics.flatMap((s) => s.metrics));
      const names = points.map((m) => m.descriptor.name).sort();
      assert.deepEqual(names, ['http.client.request.duration', 'slicer_auth.token.cache_hits', 'slicer_auth.token.requests']);
      const everything = JSON.stringify([spans.getFinishedSpans().map((s) => s.attributes), points]);
      assert.ok(
        !everything.includes(token) && !everything.includes(h.sandbox.env.SLICER_PASSWORD) && !everything.includes('wrong-password'),
      );
    } finally {
      trace.disable();
      metrics.disable();
      await meters.shutdown();
    }
  });
});

describe('getTokenInfo', () => {
  test('says where each token came from: request, memory, the shared file, the permanent token; with its times; printed without the token', async () => {
    const file = join(scratchDir('info-'), 'tokens.json');
    const first = h.client({ cacheFile: file });
    const requested = await first.getTokenInfo('slicer');
    assert.equal(requested.source, 'request');
    assert.equal(requested.scope, SLICER());
    const lifetime = (requested.expiresAt?.getTime() ?? 0) - (requested.obtainedAt?.getTime() ?? 0);
    assert.ok(Math.abs(lifetime - 3_600_000) < 1000, `valid 3600 s from when it was obtained (${lifetime} ms)`);
    assert.equal((await first.getTokenInfo('slicer')).source, 'memory');
    const second = await h.client({ cacheFile: file }).getTokenInfo('slicer');
    assert.deepEqual([second.source, second.token], ['file', requested.token]);
    const permanent = await h.client({ staticToken: 'a-permanent-token', username: '', password: '' }).getTokenInfo('slicer');
    assert.deepEqual(permanent, {
      token: 'a-permanent-token',
      scope: SLICER(),
      expiresAt: undefined,
      obtainedAt: undefined,
      source: 'permanent',
    });
    for (const info of [requested, second, permanent]) {
      const printed = `${inspect(info, { showHidden: true, depth: 5 })} ${JSON.stringify(info)}`;
      assert.ok(!printed.includes(info.token), `printed without its token (${info.source})`);
      assert.match(printed, /^\{\n {2}token: '\[redacted\]',\n {2}scope: '.*\{"token":"\[redacted\]","scope":/s);
      assert.equal({ ...info }.token, info.token, 'a spread copy holds the token');
    }
  });
});

describe('cancellation and forcing', () => {
  test('an aborted getToken rejects with the reason at once; the shared request still serves the other caller', async () => {
    h.sandbox.store.addFault({ delayMs: 300, times: 1 });
    const client = h.client();
    const controller = new AbortController();
    const aborted = client.getToken('slicer', { signal: controller.signal });
    const other = client.getToken('slicer');
    controller.abort(new Error('stop waiting'));
    await assert.rejects(aborted, /stop waiting/);
    assert.ok(await other);
    assert.equal(h.issued(), 1, 'one request, not cancelled');
  });

  test('forceRefresh replaces the token in every layer: another client on the same store gets the new one', async () => {
    const store = createMemoryStore();
    const a = h.client({ store });
    const b = h.client({ store });
    const old = await a.getToken();
    assert.equal(await b.getToken(), old);
    const fresh = await a.getToken('slicer', { forceRefresh: true });
    assert.notEqual(fresh, old);
    assert.equal(await b.getToken(), fresh, 'b confirms its token against the store and moves on');
    assert.equal(h.issued(), 2);
  });

  test('minValidity above the lifetime the service gives is MIN_VALIDITY_UNREACHABLE', async () => {
    await assert.rejects(h.client().getToken('slicer', { minValidity: 7200 }), { code: 'MIN_VALIDITY_UNREACHABLE' });
  });
});
