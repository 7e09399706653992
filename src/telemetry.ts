/**
 * One event stream, three kinds of listener: the caller's `onEvent`, the
 * logger (at the configured level), and OpenTelemetry when it is installed.
 * When nobody listens, no event is even made: the components get no sink.
 * Every text field of an event is redacted by the client's secrets first.
 */
import type { AuthEvent, AuthEventListener } from './events.ts';
import type { Logger } from './fetch.ts';
import { openTelemetryListener } from './otel.ts';

/** How much the logger says. */
export type LogLevel = 'silent' | 'error' | 'warn' | 'info' | 'debug';

const RANK: Record<LogLevel, number> = { silent: 0, error: 1, warn: 2, info: 3, debug: 4 };

/**
 * Whether a level shows lines of another.
 *
 * @param level the configured level
 * @param line the line's level
 * @returns true to log it
 */
export function shows(level: LogLevel, line: Exclude<LogLevel, 'silent'>): boolean {
  return RANK[line] <= RANK[level];
}

/** The level of each event's log line. */
function levelOf(event: AuthEvent): Exclude<LogLevel, 'silent'> {
  switch (event.type) {
    case 'token.request':
    case 'token.refresh':
      return 'info';
    case 'token.unauthorized':
      return event.retried ? 'info' : 'error';
    case 'store.fallback':
      return 'warn';
    case 'token.cached':
    case 'lock.wait':
      return 'debug';
  }
}

/** One line for an event. */
function describeEvent(event: AuthEvent): string {
  switch (event.type) {
    case 'token.request':
      return `Token request for scope "${event.scope}": ${event.outcome}${event.status ? ` (${event.status})` : ''} in ${
        Math.round(event.durationMs)
      } ms`;
    case 'token.cached':
      return `Token for scope "${event.scope}" from ${event.layer}`;
    case 'token.refresh':
      return `Refreshing the token of scope "${event.scope}" (${event.reason}), ${Math.round(event.remainingMs / 1000)} s before expiry`;
    case 'token.unauthorized':
      return `A service answered 401 for scope "${event.scope}"${event.retried ? '; retrying once with a new token' : ' again; giving up'}`;
    case 'store.fallback':
      return `The shared token store ${event.store} failed (${event.reason}); fetching tokens directly`;
    case 'lock.wait':
      return `Waited ${Math.round(event.waitedMs)} ms for another process's token for scope "${event.scope}" (${event.outcome})`;
  }
}

/** What {@link createEmitter} needs. */
export interface EmitterOptions {
  /** The caller's listener. */
  readonly onEvent?: AuthEventListener | undefined;
  readonly logger: Logger;
  readonly level: LogLevel;
  /** Look for `@opentelemetry/api` and report to it when installed. */
  readonly openTelemetry: boolean;
  /** The client's wall clock (spans are stamped with it). */
  readonly wallNow: () => number;
  /** Removes the client's secrets from a text (a scope typed by a user may hold one). */
  readonly redact: (text: string) => string;
}

/**
 * The sink the components emit to, or undefined when nobody listens.
 *
 * @param options the listeners
 * @returns the sink
 */
export function createEmitter(options: EmitterOptions): ((event: AuthEvent) => void) | undefined {
  const listeners: AuthEventListener[] = [];
  if (options.onEvent) listeners.push(options.onEvent);
  // The logger takes events only from info on: at the default level, nothing is made per request.
  // (store.fallback also comes as a warning, and a second 401 as the caller's UNAUTHORIZED error.)
  if (RANK[options.level] >= RANK.info) {
    const { logger, level } = options;
    listeners.push((event) => {
      const at = levelOf(event);
      if (at === 'warn' || !shows(level, at)) return;
      (logger[at] ?? logger.warn).call(logger, describeEvent(event));
    });
  }
  const otel = options.openTelemetry ? openTelemetryListener(options.wallNow) : undefined;
  if (otel) listeners.push(otel);
  if (listeners.length === 0) return undefined;
  const { redact } = options;
  return (raw) => {
    const event = Object.fromEntries(
      Object.entries(raw).map(([key, value]) => [key, typeof value === 'string' ? redact(value) : value]),
    ) as unknown as AuthEvent;
    for (const listener of listeners) {
      try {
        const result: unknown = listener(event);
        // An async listener's rejection is ignored too: left alone, it would end the process (an unhandled rejection).
        // Stryker disable next-line ConditionalExpression: another result has no catch, and that TypeError is ignored below
        if (result instanceof Promise) result.catch(() => undefined);
      } catch {
        // A listener's failure never fails a token request.
      }
    }
  };
}
