/**
 * Hands out temporary tokens per scope, refreshing them before they expire.
 *
 * - Freshness is checked when a token is asked for; no timer runs, so nothing
 *   keeps the process alive.
 * - One in-flight request per scope, never shared across scopes: a
 *   `Map<scope, Promise>` cleared when it settles. A cache belongs to one
 *   client (one user at one authorization service), so the scope is the
 *   whole key; a shared store adds the auth URL and user to its keys.
 * - Refresh margin: `min(configured, lifetime / 2)`, so short-lived tokens are
 *   not refreshed on every call. Early in the margin callers get the current
 *   token while one background refresh runs; past the margin's midpoint they
 *   wait for a new one. A token is never handed out past its expiry.
 * - The refresh point is pulled earlier by up to 10 % of the margin, at random,
 *   so processes started together do not refresh in lockstep.
 * - A caller's abort signal ends that caller's wait only: the request other
 *   callers share goes on.
 */
import { abortable } from '../abort.ts';
import { AuthError, MinValidityUnreachableError } from '../errors.ts';
import type { AuthEvent } from '../events.ts';
import { DEFAULT_REFRESH_MARGIN_MS, type Grant, type GrantFetcher, hardMargin, refreshMargin, type TokenOrigin } from '../grant.ts';
/** After a failed refresh, how long a still-valid token is used before trying again. */
const FAILED_REFRESH_PAUSE_MS = 30_000;
/** Share of a token's lifetime a `minValidity` may ask for and still be met by a fresh token. */
const MAX_VALIDITY_SHARE = 0.9;

/** Per-call requirements of {@link TokenCache.get}. */
export interface GetTokenOptions {
  /**
   * Minimum remaining lifetime in seconds the token must have; a token with
   * less is refreshed first (e.g. 900 before a long upload). More than the
   * service's token lifetime is an error (`MIN_VALIDITY_UNREACHABLE`).
   */
  minValidity?: number | undefined;
  /** Stops waiting for a token: this call rejects with the signal's reason; a request other callers share goes on. */
  signal?: AbortSignal | undefined;
  /** Replace the current token with a new one, in every layer (memory and the shared store). */
  forceRefresh?: boolean | undefined;
}

/** A token as the cache hands it out. */
export interface Held {
  readonly grant: Grant;
  /** Where this call found it: `memory`, or where a new one came from (a request, a shared store). */
  readonly origin: TokenOrigin;
  /** When this process obtained it (monotonic ms). */
  readonly obtainedAt: number;
}

/** What {@link createTokenCache} needs. */
export interface TokenCacheOptions {
  /** Fetches a new grant for a scope. */
  fetchGrant: GrantFetcher;
  /** Monotonic clock, ms. */
  now: () => number;
  /** Random source in [0, 1), for jitter. */
  random: () => number;
  /** Configured refresh margin in ms. @default DEFAULT_REFRESH_MARGIN_MS */
  marginMs?: number | undefined;
  /** Where warnings go (already free of secrets). */
  warn: (message: string) => void;
  /**
   * Whether a token held here is still current in a shared store (false when
   * another process forgot or replaced it): asked before `get` hands one out.
   * @default always current (no shared store)
   */
  confirm?: ((scope: string, token: string) => Promise<boolean>) | undefined;
  /** Forgets a token in the shared store too (compare-and-delete); without a token, the stored one. */
  forget?: ((scope: string, token?: string) => Promise<void>) | undefined;
  /** Receives the cache's events; undefined when nobody listens (then none is made). */
  emit?: ((event: AuthEvent) => void) | undefined;
}

/** A per-scope cache of temporary tokens. */
export interface TokenCache {
  /**
   * A token for the scope: cached while fresh, refreshed otherwise.
   * @throws the fetcher's errors when no valid token can be had; `MIN_VALIDITY_UNREACHABLE`; the signal's reason
   */
  get(scope: string, options?: GetTokenOptions): Promise<Held>;
  /**
   * Forgets the token of a scope (all scopes when none is named) here and in
   * the shared store; with `token`, only that token (a newer one is kept).
   */
  invalidate(scope?: string, token?: string): Promise<void>;
  /**
   * The cached token of a scope when it can be handed out at once (before the margin's midpoint; early in the margin a
   * background refresh starts): the request path's synchronous shortcut. Otherwise undefined, and
   * {@link TokenCache.get} decides; always so with a shared store, whose token `get` confirms first.
   */
  peek(scope: string): string | undefined;
  /** Whether a token is held that needs no token request now (with a shared store, get confirms it): no event. */
  holds(scope: string): boolean;
  /** Resolves once no token request is in flight (their locks released). */
  settled(): Promise<void>;
}

interface Entry {
  readonly grant: Grant;
  /** When this process obtained it (monotonic ms). */
  readonly obtainedAt: number;
  /** From here on, a background refresh starts. */
  readonly softAt: number;
  /** From here on, callers wait for a new token. */
  readonly hardAt: number;
  /** Set when a refresh did not give a later expiry: no more refreshes before expiry. */
  readonly final: boolean;
  /** No refresh attempt before this instant (after a failed one). */
  pausedUntil: number;
}

/**
 * Creates a token cache.
 *
 * @param options fetcher, clock, random source, margin, warning sink, shared-store hooks and event sink
 * @returns the cache
 * @example
 * ```ts
 * const cache = createTokenCache({ fetchGrant, now: () => performance.now(), random: Math.random, warn: console.warn });
 * const { grant } = await cache.get('service_id=slicer');
 * ```
 */
export function createTokenCache(options: TokenCacheOptions): TokenCache {
  const entries = new Map<string, Entry>();
  const inflight = new Map<string, Promise<Entry>>();
  const marginMs = options.marginMs ?? DEFAULT_REFRESH_MARGIN_MS;
  const { emit } = options;
  let warnedNotLater = false;

  function entryFor(grant: Grant, previous: Entry | undefined): Entry {
    const obtainedAt = options.now();
    const notLater = previous !== undefined && grant.expiresAt <= previous.grant.expiresAt + 1_000;
    if (notLater) {
      if (!warnedNotLater) {
        options.warn(
          'The token endpoint returned a token that expires no later than the one it replaces; ' +
            'using it until it expires instead of refreshing again',
        );
        warnedNotLater = true;
      }
      return { grant, obtainedAt, softAt: grant.expiresAt, hardAt: grant.expiresAt, final: true, pausedUntil: 0 };
    }
    return {
      grant,
      obtainedAt,
      softAt: grant.expiresAt - refreshMargin(grant.lifetime, marginMs, options.random()),
      hardAt: grant.expiresAt - hardMargin(grant.lifetime, marginMs),
      final: false,
      pausedUntil: 0,
    };
  }

  /** One request per scope at a time; a refresh of a held token says why. */
  function refresh(scope: string, reason?: 'margin' | 'min-validity' | 'forced'): Promise<Entry> {
    let pending = inflight.get(scope);
    if (!pending) {
      const current = entries.get(scope);
      if (emit && current && reason) {
        const remainingMs = Math.max(0, current.grant.expiresAt - options.now());
        emit({ type: 'token.refresh', scope, reason, remainingMs, marginMs: current.grant.expiresAt - current.softAt });
      }
      pending = options
        .fetchGrant(scope, current?.grant)
        .then(
          (grant) => {
            const previous = entries.get(scope);
            const entry = entryFor(grant, previous && options.now() < previous.grant.expiresAt ? previous : undefined);
            entries.set(scope, entry);
            return entry;
          },
          (error: unknown) => {
            const entry = entries.get(scope);
            if (entry) entry.pausedUntil = options.now() + Math.min(FAILED_REFRESH_PAUSE_MS, entry.grant.lifetime / 10);
            throw error;
          },
        )
        .finally(() => inflight.delete(scope));
      inflight.set(scope, pending);
    }
    return pending;
  }

  function refreshInBackground(scope: string, entry: Entry): void {
    refresh(scope, 'margin').catch((error: unknown) => {
      const left = Math.max(0, Math.round((entry.grant.expiresAt - options.now()) / 1000));
      const code = error instanceof AuthError ? error.code : 'UNKNOWN';
      options.warn(`Background token refresh for scope "${scope}" failed (${code}); keeping the current token, valid ${left} s more`);
    });
  }

  /** Early in the margin: the token is still handed out, and one background refresh starts (none while one runs). */
  function startRefreshIfDue(scope: string, entry: Entry, now: number): void {
    if (now >= entry.softAt && now >= entry.pausedUntil && !inflight.has(scope)) refreshInBackground(scope, entry);
  }

  /** The cached entry, served from memory. */
  function fromMemory(scope: string, entry: Entry): Held {
    emit?.({ type: 'token.cached', scope, layer: 'memory' });
    return { grant: entry.grant, origin: 'memory', obtainedAt: entry.obtainedAt };
  }

  /** A new entry, as obtained. */
  const obtained = (entry: Entry): Held => ({ grant: entry.grant, origin: entry.grant.source ?? 'request', obtainedAt: entry.obtainedAt });

  /**
   * Refuses a minimum validity that no token of this service can meet. (A
   * final token — a refresh gave no later expiry — is used as it is, as before.)
   */
  function checkReachable(scope: string, wantedMs: number, entry: Entry): void {
    if (!entry.final && wantedMs > entry.grant.lifetime) {
      throw new MinValidityUnreachableError(scope, wantedMs / 1000, entry.grant.lifetime / 1000);
    }
  }

  async function forget(scope: string, token?: string): Promise<void> {
    await options.forget?.(scope, token);
  }

  /** The token for a scope, as `get` decides (without the caller's abort). */
  async function hold(scope: string, getOptions: GetTokenOptions): Promise<Held> {
    const wantedMs = (getOptions.minValidity ?? 0) * 1000;
    if (getOptions.forceRefresh) {
      const current = entries.get(scope);
      const pending = refresh(scope, 'forced'); // joins a refresh already under way: that token is new too
      if (current) {
        entries.delete(scope); // nothing replaced it yet: refresh settles later
        await forget(scope, current.grant.token);
      }
      const entry = await pending;
      checkReachable(scope, wantedMs, entry);
      return obtained(entry);
    }
    const confirmed = entries.get(scope);
    if (confirmed && options.confirm && !(await options.confirm(scope, confirmed.grant.token)) && entries.get(scope) === confirmed) {
      entries.delete(scope); // forgotten or replaced by another process: fetched again (from the store, or one request)
    }
    const now = options.now();
    const entry = entries.get(scope);
    if (entry && now < entry.grant.expiresAt) {
      checkReachable(scope, wantedMs, entry);
      const remaining = entry.grant.expiresAt - now;
      // A fresh token meets up to 90 % of its lifetime at once; more would make every call refresh.
      const wanted = Math.min(wantedMs, entry.grant.lifetime * MAX_VALIDITY_SHARE);
      const short = !entry.final && remaining < wanted;
      if (now < entry.hardAt && !short) {
        startRefreshIfDue(scope, entry, now);
        return fromMemory(scope, entry);
      }
      if (now < entry.pausedUntil) return fromMemory(scope, entry);
      try {
        return obtained(await refresh(scope, short ? 'min-validity' : 'margin'));
      } catch (error) {
        // Contract 5.2: the old token stays valid until its expiry; keep using it.
        if (options.now() < entry.grant.expiresAt) return fromMemory(scope, entry);
        throw error;
      }
    }
    const fresh = await refresh(scope);
    checkReachable(scope, wantedMs, fresh);
    return obtained(fresh);
  }

  /** A scope's entry while it needs no token request: held, before the margin's midpoint. */
  function current(scope: string, now: number): Entry | undefined {
    const entry = entries.get(scope);
    // Past the margin's midpoint callers wait (get decides); before it the token is handed out at once,
    // so requests in the margin do not pay for a promise each.
    return entry && now < entry.hardAt ? entry : undefined;
  }

  return {
    get: (scope, getOptions = {}) => abortable(hold(scope, getOptions), getOptions.signal),
    holds: (scope) => current(scope, options.now()) !== undefined,
    peek(scope) {
      const now = options.now();
      // With a shared store a held token is confirmed first, as get does: only get can wait for that.
      const entry = options.confirm ? undefined : current(scope, now);
      if (!entry) return undefined;
      startRefreshIfDue(scope, entry, now);
      emit?.({ type: 'token.cached', scope, layer: 'memory' });
      return entry.grant.token;
    },
    async invalidate(scope, token) {
      const dropped: [string, string][] = [];
      for (const [key, entry] of entries) {
        if ((scope === undefined || key === scope) && (token === undefined || entry.grant.token === token)) {
          entries.delete(key);
          dropped.push([key, entry.grant.token]);
        }
      }
      // A token named is forgotten in the store even when memory holds another; a scope alone forgets the stored token.
      if (scope !== undefined && dropped.length === 0) await forget(scope, token);
      await Promise.all(dropped.map(([key, dropToken]) => forget(key, dropToken)));
    },
    async settled() {
      await Promise.allSettled([...inflight.values()]);
    },
  };
}
