/**
 * Leaf: the grant model (a token with its lifetime) and the refresh margins
 * that the token cache and the shared stores both apply.
 */

import { DEFAULTS } from './defaults.ts';

/**
 * Where a token came from: a new token request, the configured permanent
 * token, this process's memory, or a shared store (`file`, `redis`, or
 * `store`: an engine of your own). The one union of the module: events, store
 * kinds and `getTokenInfo` use parts of it.
 */
export type TokenOrigin = 'request' | 'permanent' | 'memory' | 'file' | 'redis' | 'store';

/** Where a token is found without a request: memory or a shared store. */
export type CacheLayer = Exclude<TokenOrigin, 'request' | 'permanent'>;

/** A token with its lifetime, measured on the client's monotonic clock. */
export interface Grant {
  /** The access token. */
  readonly token: string;
  /** Monotonic instant (ms) at which it expires. */
  readonly expiresAt: number;
  /** Its full lifetime in ms, as the server stated it. */
  readonly lifetime: number;
  /** Where it was obtained: a token request (default), a shared store, or this process's memory (another client's). */
  readonly source?: Exclude<TokenOrigin, 'permanent'> | undefined;
}

/** What `getTokenInfo` tells of a token. Printed or given to `JSON.stringify`, it shows its token as `[redacted]`. */
export interface TokenInfo {
  /** The access token (read it here: printing the whole object hides it). */
  readonly token: string;
  /** The scope string sent to the token endpoint, `service_id=<id>`. */
  readonly scope: string;
  /** When it expires (wall clock); undefined for a permanent token. */
  readonly expiresAt: Date | undefined;
  /** When this client obtained it (wall clock); undefined for a permanent token. */
  readonly obtainedAt: Date | undefined;
  /** Where this call found it: in memory, a shared store, a new request, or the configured permanent token. */
  readonly source: TokenOrigin;
}

/**
 * Fetches a new grant for one scope. `replacing` is the grant a refresh
 * replaces, if any: a shared store then hands out only another one.
 */
export type GrantFetcher = (scope: string, replacing?: Grant) => Promise<Grant>;

/** The default refresh margin, ms. */
export const DEFAULT_REFRESH_MARGIN_MS = DEFAULTS.refreshMarginSeconds * 1000;
const MAX_MARGIN_SHARE = 0.5;
const JITTER_SHARE = 0.1;

/**
 * How long before expiry a token enters its refresh margin, jitter included.
 *
 * @param lifetime the token's full lifetime, ms
 * @param marginMs the configured margin, ms
 * @param random a value in [0, 1): 1 gives the earliest possible refresh point
 * @returns the margin in ms
 */
export function refreshMargin(lifetime: number, marginMs: number = DEFAULT_REFRESH_MARGIN_MS, random = 1): number {
  return Math.min(marginMs, lifetime * MAX_MARGIN_SHARE) * (1 + JITTER_SHARE * random);
}

/**
 * The hard margin: from here on callers wait for a new token instead of
 * taking the current one (the soft margin's midpoint, without jitter).
 *
 * @param lifetime the token's full lifetime, ms
 * @param marginMs the configured margin, ms
 * @returns ms before expiry
 */
export function hardMargin(lifetime: number, marginMs?: number): number {
  return refreshMargin(lifetime, marginMs, 0) / 2;
}
