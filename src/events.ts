/**
 * Leaf: the typed events a client emits about its tokens. A caller's
 * `onEvent`, the logger's info and debug lines and the OpenTelemetry adapter
 * all listen to them; warnings (a store failing, a token withheld) go to the
 * logger directly, and a final failure is the caller's error. No event ever
 * holds a password or a token: scopes, durations, layers, statuses and error
 * codes only.
 */
import type { ErrorCode } from './errors.ts';
import type { CacheLayer } from './grant.ts';

/** One thing the client did. */
export type AuthEvent =
  | {
    /** A request to the token endpoint ended (after its own retries). */
    readonly type: 'token.request';
    readonly scope: string;
    /** The token endpoint (no query, no credentials). */
    readonly url: string;
    readonly durationMs: number;
    /** `ok`, or the error code the request failed with. */
    readonly outcome: 'ok' | ErrorCode;
    /** The final HTTP status, when an answer came. */
    readonly status?: number | undefined;
  }
  | {
    /** A token was handed out from a cache layer, without a request. */
    readonly type: 'token.cached';
    readonly scope: string;
    readonly layer: CacheLayer;
  }
  | {
    /** A new token is being fetched for a scope that has one. */
    readonly type: 'token.refresh';
    readonly scope: string;
    /** Why: in the refresh margin ahead of expiry, a `minValidity` the current token cannot meet, or `forceRefresh`. */
    readonly reason: 'margin' | 'min-validity' | 'forced';
    /** How long the current token was still valid, ms. */
    readonly remainingMs: number;
    /** The refresh margin applied to the current token, ms: the configured one capped at half its lifetime, with its jitter. */
    readonly marginMs: number;
  }
  | {
    /** A service answered 401. */
    readonly type: 'token.unauthorized';
    readonly scope: string;
    /** True when the request is sent once more with a fresh token; false when it gives up. */
    readonly retried: boolean;
  }
  | {
    /** The shared store failed; tokens are fetched directly until it answers again. */
    readonly type: 'store.fallback';
    /** The store, without credentials. */
    readonly store: string;
    /** What failed (no secret). */
    readonly reason: string;
  }
  | {
    /** A caller waited for another process's token request (the store's lock). */
    readonly type: 'lock.wait';
    readonly scope: string;
    readonly waitedMs: number;
    /** `read`: the other's token was read; `acquired`: the lock came free; `gave-up`: the wait was bounded. */
    readonly outcome: 'read' | 'acquired' | 'gave-up';
  };

/** The names of the events. */
export type AuthEventType = AuthEvent['type'];

/** Receives events; a listener that throws, or an async one that rejects, is ignored. */
export type AuthEventListener = (event: AuthEvent) => void;

/** @deprecated renamed {@link AuthEventListener} (this name shadows the DOM's `EventListener`); kept until the next minor version */
export type EventListener = AuthEventListener;
