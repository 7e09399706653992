/**
 * OpenTelemetry, when the application uses it: a span per token request,
 * following the semantic conventions for HTTP client spans, and counters and
 * histograms for the other events. `@opentelemetry/api` (an optional peer
 * dependency) is imported only when the application has registered an
 * OpenTelemetry SDK (the API's global registry exists) before creating the
 * client; otherwise nothing is loaded and no event is made for it.
 *
 * Instruments (meter and tracer `slicer-auth`):
 * - span `POST` (kind client) per token request: `http.request.method`,
 *   `server.address`, `server.port`, `url.full` (the token endpoint),
 *   `http.response.status_code`, `error.type`, `slicer_auth.scope`;
 * - histogram `http.client.request.duration` (s), the same request attributes;
 * - counters `slicer_auth.token.requests` (`outcome`), `slicer_auth.token.cache_hits` (`layer`),
 *   `slicer_auth.token.refreshes` (`reason`), `slicer_auth.token.unauthorized` (`retried`),
 *   `slicer_auth.store.fallbacks`;
 * - histogram `slicer_auth.lock.wait.duration` (s, `outcome`).
 * No attribute holds a password or a token.
 */
import type { AuthEvent, AuthEventListener } from '../events.ts';

/** Where `@opentelemetry/api` 1.x keeps the registered providers (its `GLOBAL_OPENTELEMETRY_API_KEY`). */
const REGISTRY = Symbol.for('opentelemetry.js.api.1');

type Api = typeof import('@opentelemetry/api');

/** Events that arrive while the API is being imported are kept (a few) and recorded once it is there. */
const EARLY_EVENTS = 64;

/** The instruments, made once the API is loaded. */
function instruments(api: Api, wallNow: () => number): AuthEventListener {
  const tracer = api.trace.getTracer('slicer-auth');
  const meter = api.metrics.getMeter('slicer-auth');
  const duration = meter.createHistogram('http.client.request.duration', { unit: 's', description: 'Token endpoint request duration' });
  const requests = meter.createCounter('slicer_auth.token.requests', { description: 'Token requests, by outcome' });
  const hits = meter.createCounter('slicer_auth.token.cache_hits', { description: 'Tokens handed out without a request, by layer' });
  const refreshes = meter.createCounter('slicer_auth.token.refreshes', { description: 'Refreshes of a held token, by reason' });
  const unauthorized = meter.createCounter('slicer_auth.token.unauthorized', { description: '401 answers of services' });
  const fallbacks = meter.createCounter('slicer_auth.store.fallbacks', { description: 'Shared store failures' });
  const waits = meter.createHistogram('slicer_auth.lock.wait.duration', { unit: 's', description: "Waits for another process's token" });
  return (event: AuthEvent) => {
    switch (event.type) {
      case 'token.request': {
        const url = new URL(event.url);
        const attributes = {
          'http.request.method': 'POST',
          'server.address': url.hostname,
          'server.port': Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
          ...(event.status ? { 'http.response.status_code': event.status } : {}),
          ...(event.outcome === 'ok' ? {} : { 'error.type': event.outcome }),
        };
        const end = wallNow();
        const span = tracer.startSpan('POST', {
          kind: api.SpanKind.CLIENT,
          startTime: end - event.durationMs,
          attributes: { ...attributes, 'url.full': event.url, 'slicer_auth.scope': event.scope },
        });
        if (event.outcome !== 'ok') span.setStatus({ code: api.SpanStatusCode.ERROR, message: event.outcome });
        span.end(end);
        duration.record(event.durationMs / 1000, attributes);
        requests.add(1, { outcome: event.outcome });
        return;
      }
      case 'token.cached':
        return hits.add(1, { layer: event.layer });
      case 'token.refresh':
        return refreshes.add(1, { reason: event.reason });
      case 'token.unauthorized':
        return unauthorized.add(1, { retried: event.retried });
      case 'store.fallback':
        return fallbacks.add(1);
      case 'lock.wait':
        return waits.record(event.waitedMs / 1000, { outcome: event.outcome });
    }
  };
}

/**
 * A listener that reports to OpenTelemetry, or undefined when no
 * OpenTelemetry SDK is registered (then there is nothing to report to).
 *
 * @param wallNow the client's wall clock: a span ends when its event arrives
 * @returns the listener
 */
export function openTelemetryListener(wallNow: () => number): AuthEventListener | undefined {
  if (!(REGISTRY in globalThis)) return undefined;
  let record: AuthEventListener | undefined;
  const early: AuthEvent[] = [];
  import('@opentelemetry/api').then(
    (api) => {
      record = instruments(api, wallNow);
      for (const event of early.splice(0)) record(event);
    },
    () => void early.splice(0),
  );
  return (event) => {
    if (record) record(event);
    else if (early.length < EARLY_EVENTS) early.push(event);
  };
}
