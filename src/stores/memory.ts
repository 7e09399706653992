/**
 * A token store in memory: shared by the clients of one process that are
 * given the same store (e.g. several `createAuthClient` calls) or, with no
 * store configured, that have the same credentials (`process_share.ts`); and
 * the reference implementation of the interface.
 */
import { systemClock } from '../clock.ts';
import type { Release, StoredGrant, StoreKey, TokenStore } from './store.ts';

const id = (key: StoreKey) => `${key.authUrl}\u0000${key.username}\u0000${key.scope}`;

/**
 * Creates a store in memory.
 *
 * @param now wall clock, ms since the epoch
 * @returns the store
 * @example
 * ```ts
 * const store = createMemoryStore();
 * const a = createAuthClient({ store });
 * const b = createAuthClient({ store, transport: 'post' }); // shares a's tokens
 * ```
 */
export function createMemoryStore(now: () => number = systemClock.wallNow): TokenStore {
  const grants = new Map<string, StoredGrant>();
  const locks = new Map<string, { owner: symbol; until: number }>();
  return {
    description: 'memory',
    get: async (key) => {
      const grant = grants.get(id(key));
      return grant && grant.expiresAt > now() ? grant : undefined;
    },
    put: async (key, grant) => void grants.set(id(key), grant),
    deleteIfSame: async (key, token) => {
      if (grants.get(id(key))?.token === token) grants.delete(id(key));
    },
    lock: async (key, ttlMs): Promise<Release | undefined> => {
      const held = locks.get(id(key));
      if (held && held.until > now()) return undefined;
      const owner = Symbol('lock owner');
      locks.set(id(key), { owner, until: now() + ttlMs });
      return async () => {
        if (locks.get(id(key))?.owner === owner) locks.delete(id(key));
      };
    },
  };
}
