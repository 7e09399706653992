/**
 * One event stream, three kinds of listener: the caller's `onEvent`, the
 * logger (at the configured level), and OpenTelemetry when it is installed.
 * When nobody listens, no event is even made: the components get no sink.
 * Every text field of an event is redacted by the client's secrets first.
 */
import type { AuthEvent, AuthEventListener } from '../events.ts';
import type { Logger } from '../fetch.ts';
import { openTelemetryListener } from './otel.ts';
import type { Redactor } from '../redact.ts';

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

/** The events the logger writes a line for: all but `store.fallback`, which comes as a warning already. */
type LoggedEvent = Exclude<AuthEvent, { readonly type: 'store.fallback' }>;

/** The level of each event's log line. */
function levelOf(event: LoggedEvent): Exclude<LogLevel, 'silent' | 'warn'> {
  switch (event.type) {
    case 'token.request':
    case 'token.refresh':
      return 'info';
    case 'token.unauthorized':
      return event.retried ? 'info' : 'error';
    case 'token.cached':
    case 'lock.wait':
      return 'debug';
  }
}

/** One line for an event. */
function describeEvent(event: LoggedEvent): string {
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
  readonly redact: Redactor;
}

/**
 * The sink the components emit to, or undefined when nobody listens.
 *
 * @param options the listeners
 * @returns the sink
 */
export function createEmitter(options: EmitterOptions): ((event: AuthEvent) => void) | undefined {
  // Stryker disable next-line ArrayDeclaration: a listener that is no function throws, and that is ignored below
  const listeners: AuthEventListener[] = [];
  // Stryker disable next-line ConditionalExpression: a listener that is no function throws, and that is ignored below
  if (options.onEvent) listeners.push(options.onEvent);
  // The logger takes events only from info on: at the default level, nothing is made per request.
  // (A second 401 also comes as the caller's UNAUTHORIZED error.)
  if (RANK[options.level] >= RANK.info) {
    const { logger, level } = options;
    listeners.push((event) => {
      // Stryker disable next-line ConditionalExpression,StringLiteral: store.fallback has no level in levelOf, and shows() refuses none
      if (event.type === 'store.fallback') return;
      const at = levelOf(event);
      if (shows(level, at)) (logger[at] ?? logger.warn).call(logger, describeEvent(event));
    });
  }
  const otel = options.openTelemetry ? openTelemetryListener(options.wallNow) : undefined;
  // Stryker disable next-line ConditionalExpression: a listener that is no function throws, and that is ignored below
  if (otel) listeners.push(otel);
  // Stryker disable next-line ConditionalExpression: a sink that nobody listens to changes nothing but what events cost
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
