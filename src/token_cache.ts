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
 */
import { AuthError } from './errors.ts';
import { DEFAULT_REFRESH_MARGIN_MS, type Grant, type GrantFetcher, hardMargin, refreshMargin } from './grant.ts';
/** After a failed refresh, how long a still-valid token is used before trying again. */
const FAILED_REFRESH_PAUSE_MS = 30_000;

/** Per-call requirements of {@link TokenCache.get}. */
export interface GetTokenOptions {
  /**
   * Minimum remaining lifetime in seconds the token must have; a token with
   * less is refreshed first (e.g. 900 before a long upload).
   */
  minValidity?: number | undefined;
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
}

/** A token the cache dropped. */
export interface Dropped {
  readonly scope: string;
  readonly token: string;
}

/** A per-scope cache of temporary tokens. */
export interface TokenCache {
  /**
   * A token for the scope: cached while fresh, refreshed otherwise.
   * @throws the fetcher's errors when no valid token can be had
   */
  get(scope: string, options?: GetTokenOptions): Promise<string>;
  /**
   * Drops the cached token of a scope (all scopes when none is named); with
   * `token`, only if that is still the cached one.
   * @returns the tokens dropped, so that shared layers can forget them too
   */
  invalidate(scope?: string, token?: string): Dropped[];
  /** Resolves once no token request is in flight (their locks released). */
  settled(): Promise<void>;
  /**
   * The cached token of a scope when it needs nothing (no refresh due, no
   * minimum validity): the request path's synchronous shortcut. Otherwise
   * undefined, and {@link TokenCache.get} decides.
   */
  peek(scope: string): string | undefined;
}

interface Entry {
  readonly grant: Grant;
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
 * @param options fetcher, clock, random source, margin and warning sink
 * @returns the cache
 * @example
 * ```ts
 * const cache = createTokenCache({ fetchGrant, now: () => performance.now(), random: Math.random, warn: console.warn });
 * const token = await cache.get('service_id=slicer');
 * ```
 */
export function createTokenCache(options: TokenCacheOptions): TokenCache {
  const entries = new Map<string, Entry>();
  const inflight = new Map<string, Promise<Grant>>();
  const marginMs = options.marginMs ?? DEFAULT_REFRESH_MARGIN_MS;
  let warnedNotLater = false;

  function entryFor(grant: Grant, previous: Entry | undefined): Entry {
    const notLater = previous !== undefined && grant.expiresAt <= previous.grant.expiresAt + 1_000;
    if (notLater) {
      if (!warnedNotLater) {
        options.warn(
          'The token endpoint returned a token that expires no later than the one it replaces; ' +
            'using it until it expires instead of refreshing again',
        );
        warnedNotLater = true;
      }
      return { grant, softAt: grant.expiresAt, hardAt: grant.expiresAt, final: true, pausedUntil: 0 };
    }
    return {
      grant,
      softAt: grant.expiresAt - refreshMargin(grant.lifetime, marginMs, options.random()),
      hardAt: grant.expiresAt - hardMargin(grant.lifetime, marginMs),
      final: false,
      pausedUntil: 0,
    };
  }

  function refresh(scope: string): Promise<Grant> {
    let pending = inflight.get(scope);
    if (!pending) {
      pending = options
        .fetchGrant(scope, entries.get(scope)?.grant)
        .then(
          (grant) => {
            const previous = entries.get(scope);
            entries.set(scope, entryFor(grant, previous && options.now() < previous.grant.expiresAt ? previous : undefined));
            return grant;
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
    refresh(scope).catch((error: unknown) => {
      const left = Math.max(0, Math.round((entry.grant.expiresAt - options.now()) / 1000));
      const code = error instanceof AuthError ? error.code : 'UNKNOWN';
      options.warn(`Background token refresh for scope "${scope}" failed (${code}); keeping the current token, valid ${left} s more`);
    });
  }

  return {
    async get(scope, getOptions = {}) {
      const held = entries.get(scope);
      if (held && options.confirm && !(await options.confirm(scope, held.grant.token)) && entries.get(scope) === held) {
        entries.delete(scope); // forgotten or replaced by another process: fetched again (from the store, or one request)
      }
      const now = options.now();
      const entry = entries.get(scope);
      if (entry && now < entry.grant.expiresAt) {
        const remaining = entry.grant.expiresAt - now;
        // A token can never satisfy more than its own lifetime; clamping keeps a too-large
        // minValidity from forcing a refresh on every call.
        const wanted = Math.min((getOptions.minValidity ?? 0) * 1000, entry.grant.lifetime * 0.9);
        const mustRefresh = now >= entry.hardAt || (!entry.final && remaining < wanted);
        if (!mustRefresh) {
          if (now >= entry.softAt && now >= entry.pausedUntil) refreshInBackground(scope, entry);
          return entry.grant.token;
        }
        if (now < entry.pausedUntil) return entry.grant.token;
        try {
          return (await refresh(scope)).token;
        } catch (error) {
          // Contract 5.2: the old token stays valid until its expiry; keep using it.
          if (options.now() < entry.grant.expiresAt) return entry.grant.token;
          throw error;
        }
      }
      return (await refresh(scope)).token;
    },
    peek(scope) {
      const entry = entries.get(scope);
      return entry && options.now() < entry.softAt ? entry.grant.token : undefined;
    },
    invalidate(scope, token) {
      const dropped: Dropped[] = [];
      for (const [key, entry] of entries) {
        if ((scope === undefined || key === scope) && (token === undefined || entry.grant.token === token)) {
          entries.delete(key);
          dropped.push({ scope: key, token: entry.grant.token });
        }
      }
      return dropped;
    },
    async settled() {
      await Promise.allSettled([...inflight.values()]);
    },
  };
}
