/**
 * Chooses a client's shared token store from its configuration: the store
 * given as an option, else Redis (`SLICER_STORE_URL`, loaded only then),
 * else the file cache (`SLICER_CACHE_FILE`), else none.
 */
import type { Secret } from '../redact.ts';
import { createFileStore } from './file.ts';
import { describeRedisUrl } from './redis_url.ts';
import { StoreUnavailableError, type TokenStore } from './store.ts';

/** The settings that select a store. */
export interface StoreSettings {
  /** A store the caller made (wins over the settings). */
  readonly store?: TokenStore | undefined;
  /** Redis URL. */
  readonly storeUrl?: Secret | undefined;
  /** Secret that seals tokens at rest, in Redis or the cache file. */
  readonly storeKey?: Secret | undefined;
  /** File of the cross-process cache. */
  readonly cacheFile?: string | undefined;
  /** The client's wall clock: entries expire with their tokens on it. */
  readonly wallNow: () => number;
}

/**
 * The shared store a configuration names. The Redis module (and ioredis) is
 * imported on first use only, so a client without Redis never loads it.
 *
 * @param settings the store option, the store settings and the wall clock
 * @returns the store, or undefined when none is configured
 */
export function selectStore(settings: StoreSettings): TokenStore | undefined {
  if (settings.store) return settings.store;
  const url = settings.storeUrl?.reveal();
  if (url) {
    const description = describeRedisUrl(url);
    const redis = import('./redis.ts')
      .then((m) => m.createRedisStore({ url, key: settings.storeKey, wallNow: settings.wallNow }))
      .catch((error: unknown) => {
        // A driver's own message may quote the URL, password included: only its code or name is shown.
        // Stryker disable next-line ConditionalExpression: only a missing ioredis throws it, and the tests run with ioredis installed
        if (error instanceof StoreUnavailableError) throw error;
        const reason = (error as { code?: unknown }).code ?? (error as Error).name;
        throw new StoreUnavailableError(`The shared token store ${description} cannot be used (${String(reason)})`);
      });
    redis.catch(() => undefined); // reported by the first operation
    return {
      description,
      kind: 'redis',
      get: async (key) => (await redis).get(key),
      put: async (key, grant) => (await redis).put(key, grant),
      deleteIfSame: async (key, token) => (await redis).deleteIfSame(key, token),
      lock: async (key, ttl) => (await redis).lock(key, ttl),
      // Stryker disable next-line OptionalChaining: the Redis store always has close; the type says it is optional
      close: async () => (await redis.catch(() => undefined))?.close?.(),
    };
  }
  return settings.cacheFile ? createFileStore(settings.cacheFile, settings.wallNow, settings.storeKey) : undefined;
}
