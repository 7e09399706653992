/**
 * The interface of a shared token store: where processes (and machines)
 * share temporary tokens so that one token request serves them all. Three
 * implementations stand side by side — `memory.ts`, `file.ts`, `redis.ts` —
 * and `shared_grants.ts` holds the one policy they share. Implement this to
 * plug another engine: `createAuthClient({ store })`.
 */

import type { CacheLayer } from '../grant.ts';

/** Whose token an entry is: one user at one authorization service, for one scope. */
export interface StoreKey {
  readonly authUrl: string;
  readonly username: string;
  readonly scope: string;
}

/** A stored token; times on the wall clock (shared between processes). */
export interface StoredGrant {
  readonly token: string;
  /** Expiry, ms since the epoch. */
  readonly expiresAt: number;
  /** Full lifetime, ms. */
  readonly lifetime: number;
}

/** Releases a lock (only if its owner still holds it). */
export type Release = () => Promise<void>;

/**
 * A shared token store. Every method may throw when the store is unusable
 * (down, slow, untrusted, corrupt): the client then warns once and fetches
 * tokens directly, so a store failure never fails a call. A thrown error's
 * message is shown as it is; it must hold no secret.
 */
export interface TokenStore {
  /** Where it is, for messages (no credentials), e.g. `redis://cache:6379/0`. */
  readonly description: string;
  /** What it is, in events and `getTokenInfo`'s `source`. @default "store" (your own engine) */
  readonly kind?: Exclude<CacheLayer, 'store'> | undefined;
  /** The stored grant of a key, if any. */
  get(key: StoreKey): Promise<StoredGrant | undefined>;
  /** Stores a grant until it expires, replacing the key's grant. */
  put(key: StoreKey, grant: StoredGrant): Promise<void>;
  /** Deletes the key's grant only if it still holds this token (a token a service refused). */
  deleteIfSame(key: StoreKey, token: string): Promise<void>;
  /**
   * Takes the key's lock for at most `ttlMs` (it then expires by itself, so a
   * holder that died cannot block the others).
   * @returns its release, or undefined while another holder has it
   */
  lock(key: StoreKey, ttlMs: number): Promise<Release | undefined>;
  /** Lets the process exit: closes connections (optional). */
  close?(): Promise<void>;
}

/**
 * A store's entry that is not to be trusted (not sealed with this client's
 * key, sealed for another key, altered, or not ours): the store itself works.
 * The shared policy warns once and treats it as missing, so the next token
 * fetched replaces it. Its message is shown as it is: no secret.
 */
export class UntrustedEntryError extends Error {
  /** @param message what is wrong with the entry and what to do */
  constructor(message: string) {
    super(message);
    this.name = 'UntrustedEntryError';
  }
}

/** A store that cannot be used at all (its driver missing or refusing its settings); the message holds no secret. */
export class StoreUnavailableError extends Error {
  /** @param message what is wrong and what to do */
  constructor(message: string) {
    super(message);
    this.name = 'StoreUnavailableError';
  }
}
