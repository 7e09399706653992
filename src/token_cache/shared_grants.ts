/**
 * The one policy of every shared token store (memory, file, Redis): a
 * distributed single flight in front of the token endpoint.
 *
 * - A stored token is used while it is out of its hard margin, unless it is
 *   the very token a refresh replaces (then the refresher fetches the next).
 * - On a miss, one caller in the whole fleet takes the key's lock (which
 *   expires by itself if its holder dies), looks again, requests the token
 *   and stores it; the others poll the store (bounded) and read it.
 * - A token a service refused is never read back, and is deleted from the
 *   store if it is still the stored one, so the fleet moves to a new token
 *   with one request.
 * - A store that fails (down, slow, untrusted) never fails a call: one
 *   warning, then tokens are fetched directly until it answers again. An
 *   entry that is not to be trusted (unsealed, moved, altered, foreign) reads
 *   as missing, with one warning: the next token fetched replaces it.
 *   The password never goes to the store: only tokens do.
 */
import * as v from 'valibot';
import type { Clock } from '../clock.ts';
import type { AuthEvent } from '../events.ts';
import { type Grant, type GrantFetcher, hardMargin } from '../grant.ts';
import { StoredGrantSchema } from '../schemas.ts';
import { type StoredGrant, type StoreKey, type TokenStore, UntrustedEntryError } from '../stores/store.ts';

/** How often a waiting caller looks again. */
const POLL_MS = 50;
/** How long a caller waits for another's token before fetching its own. */
const MAX_WAIT_MS = 15_000;
/** A lock outlives any token request with its retries: then it expires by itself. */
export const LOCK_TTL_MS = 60_000;

/** What {@link createSharedGrants} needs. */
export interface SharedGrantsOptions {
  /** The store. */
  store: TokenStore;
  /** Auth URL and user: with the scope they form each entry's key. */
  authUrl: string;
  username: string;
  /** The client's clock: monotonic time for grants, wall time for the store, and the wait between polls. */
  clock: Clock;
  /** Configured refresh margin, ms. */
  marginMs?: number | undefined;
  /** Where warnings go (already free of secrets). */
  warn: (message: string) => void;
  /** Receives `store.fallback` and `lock.wait` events; undefined when nobody listens. */
  emit?: ((event: AuthEvent) => void) | undefined;
}

/** Grants through a shared store. */
export interface SharedGrants {
  /** Fetches a grant: from the store while fresh, else from the token endpoint (stored for the others). */
  readonly fetchGrant: GrantFetcher;
  /**
   * Forgets a token (refused by a service, or invalidated), here and in the
   * store: deleted only if it is still the stored one. Without `token`, the
   * stored token of the scope, whichever it is.
   */
  forget(scope: string, token?: string): Promise<void>;
  /** Whether a token is still the stored one; true while the store cannot be read (the token stands). */
  confirm(scope: string, token: string): Promise<boolean>;
}

/**
 * Puts a shared store in front of a grant fetcher.
 *
 * @param fetchGrant fetches a new grant from the token endpoint
 * @param options the store, key parts, clock and warning sink
 * @returns the shared fetcher and its `forget`
 */
export function createSharedGrants(fetchGrant: GrantFetcher, options: SharedGrantsOptions): SharedGrants {
  const { store, clock } = options;
  /** How a token read from this store is reported: this process's memory, a file, Redis, or another engine. */
  const layer = store.kind ?? 'store';
  const refused = new Set<string>();
  const confirming = new Map<string, Promise<boolean>>();
  /** Per scope, how many confirmations in a row found no entry. */
  const missed = new Map<string, number>();
  const key = (scope: string): StoreKey => ({ authUrl: options.authUrl, username: options.username, scope });
  let failing = false;
  const warned = new Set<string>();
  const warnOnce = (message: string) => {
    if (!warned.has(message)) options.warn(message);
    warned.add(message);
  };

  /** Runs a store operation; a failure is warned once and reads as `failed`. */
  async function attempt<T>(operation: () => Promise<T>): Promise<T | typeof FAILED> {
    try {
      const result = await operation();
      if (failing) {
        failing = false;
        options.warn(`The shared token store ${store.description} answers again; using it`);
        warned.clear();
      }
      return result;
    } catch (error) {
      failing = true;
      warnOnce(`${(error as Error).message}; fetching tokens directly until the shared token store answers again`);
      options.emit?.({ type: 'store.fallback', store: store.description, reason: (error as Error).message });
      return FAILED;
    }
  }

  /**
   * The stored grant of a scope. An untrusted entry, or one that is no usable token (a store may be the user's own
   * code), reads as none (warned once), so the next token stored replaces it.
   */
  const read = (scope: string) =>
    attempt(async (): Promise<StoredGrant | undefined> => {
      let entry: unknown;
      try {
        entry = await store.get(key(scope));
      } catch (error) {
        if (!(error instanceof UntrustedEntryError)) throw error;
        warnOnce(error.message);
        return undefined;
      }
      if (entry === undefined || entry === null) return undefined; // null too, as a driver may say "none"
      const checked = v.safeParse(StoredGrantSchema, entry);
      if (checked.success) return checked.output;
      const [issue] = checked.issues;
      warnOnce(
        `The shared token store ${store.description} holds an entry for scope "${scope}" that is no usable token ` +
          `(${v.getDotPath(issue) ?? 'entry'} ${issue.message}); ignoring it`,
      );
      return undefined;
    });

  /**
   * A stored grant this caller can use: not refused, not the one its refresh
   * replaces, and still out of the hard margin (where callers would wait).
   * A stored token inside its soft margin is taken: the caller's own cache
   * refreshes it in the background, and the first refresher in the fleet
   * stores the next one for all.
   */
  function usable(scope: string, stored: StoredGrant | undefined | typeof FAILED, replacing: Grant | undefined): Grant | undefined {
    if (!stored || stored === FAILED || refused.has(stored.token) || stored.token === replacing?.token) return undefined;
    // An entry never lasts longer than its lifetime: an expiry further out (a clock ahead, or a store's own) is cut to it.
    const remaining = Math.min(stored.expiresAt - clock.wallNow(), stored.lifetime);
    if (remaining <= hardMargin(stored.lifetime, options.marginMs) + 1000) return undefined;
    options.emit?.({ type: 'token.cached', scope, layer });
    return { token: stored.token, expiresAt: clock.now() + remaining, lifetime: stored.lifetime, source: layer };
  }

  const shared: GrantFetcher = async (scope, replacing) => {
    const first = await read(scope);
    if (first === FAILED) return fetchGrant(scope);
    const cached = usable(scope, first, replacing);
    if (cached) return cached;
    const waitStarted = clock.now();
    const waitUntil = waitStarted + MAX_WAIT_MS;
    const waited = (outcome: 'read' | 'acquired' | 'gave-up') =>
      options.emit?.({ type: 'lock.wait', scope, waitedMs: clock.now() - waitStarted, outcome });
    let polled = false;
    let release: Awaited<ReturnType<TokenStore['lock']>> | typeof FAILED;
    while (!(release = await attempt(() => store.lock(key(scope), LOCK_TTL_MS)))) {
      polled = true;
      await clock.sleep(POLL_MS);
      const stored = await read(scope);
      if (stored === FAILED) return fetchGrant(scope);
      const written = usable(scope, stored, replacing);
      if (written) {
        waited('read');
        return written;
      }
      if (clock.now() > waitUntil) {
        waited('gave-up');
        warnOnce(`The shared token store's lock for scope "${scope}" stayed taken; fetching a token without it`);
        return fetchGrant(scope);
      }
    }
    if (polled) waited('acquired');
    if (release === FAILED) return fetchGrant(scope);
    try {
      const meanwhile = await read(scope);
      const written = usable(scope, meanwhile, replacing);
      if (written) return written;
      const grant = await fetchGrant(scope);
      if (meanwhile !== FAILED) {
        const wall = clock.wallNow();
        await attempt(() =>
          store.put(key(scope), { token: grant.token, expiresAt: wall + (grant.expiresAt - clock.now()), lifetime: grant.lifetime })
        );
      }
      return grant;
    } finally {
      await attempt(release);
    }
  };

  return {
    fetchGrant: shared,
    forget: async (scope, token) => {
      // Stryker disable next-line ConditionalExpression: FAILED is a symbol, so `found?.token` alone is undefined for it too
      const stored = token ?? (await read(scope).then((found) => (found === FAILED ? undefined : found?.token)));
      if (stored === undefined) return;
      refused.add(stored);
      await attempt(() => store.deleteIfSame(key(scope), stored));
    },
    confirm(scope, token) {
      // One read per scope and token at a time, however many callers ask.
      const id = `${scope}\n${token}`;
      let pending = confirming.get(id);
      if (!pending) {
        pending = read(scope)
          .then((stored) => {
            if (stored === FAILED) return true;
            if (stored) {
              missed.delete(scope);
              return stored.token === token;
            }
            // No entry: forgotten by another process, so this one moves on too; but a second time in a row, with the
            // token fetched and stored in between gone as well, the store keeps nothing, and a request per call follows.
            const misses = (missed.get(scope) ?? 0) + 1;
            missed.set(scope, misses);
            if (misses < 2) return false;
            warnOnce(
              `The shared token store ${store.description} keeps no token for scope "${scope}" (the one stored was gone ` +
                'at the next call); using tokens from memory until it keeps one',
            );
            return true;
          })
          .finally(() => confirming.delete(id));
        confirming.set(id, pending);
      }
      return pending;
    },
  };
}

const FAILED: unique symbol = Symbol('store failed');
