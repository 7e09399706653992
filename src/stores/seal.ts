/**
 * Sealing a shared store's entries (Redis, and the cache file): AES-256-GCM (authenticated encryption)
 * whose associated data is what the entry is stored under, so an entry
 * copied to another key, altered by one byte or written without the key does
 * not open. The cipher key comes from `SLICER_STORE_KEY` through scrypt, a
 * key-derivation function that makes each guess of a weak passphrase cost
 * tens of milliseconds and 32 MiB; `slicer-auth store-key` prints a random
 * full-strength key.
 */
import { createCipheriv, createDecipheriv, randomBytes, scrypt } from 'node:crypto';
import type { Secret } from '../redact.ts';
import { type StoredGrant, UntrustedEntryError } from './store.ts';

/** scrypt's cost: N = 2^15, r = 8, p = 1 (about 32 MiB and 50–100 ms, once per process). */
const SCRYPT = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } as const;
/** The salt binds derived keys to this use; the passphrase is the secret. */
const SALT = 'slicer-auth store seal v2';
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** What every sealed entry starts with: the format, so another format is told apart before decrypting. */
export const SEALED_PREFIX = 's2.';

/** Seals and opens entries with one derived key. */
export interface Seal {
  /**
   * Encrypts a text bound to where it is stored.
   * @param text the entry
   * @param storedUnder the key it is stored under (the associated data)
   * @returns `s2.` and base64url of iv, ciphertext and tag
   */
  seal(text: string, storedUnder: string): string;
  /**
   * Decrypts an entry sealed for exactly this place.
   * @param sealed what {@link Seal.seal} returned
   * @param storedUnder the key it was read from
   * @returns the text, or undefined when it is not sealed, sealed with another key, moved, or altered
   */
  open(sealed: string, storedUnder: string): string | undefined;
}

/**
 * Derives the cipher key from a passphrase or a generated key.
 *
 * @param secret `SLICER_STORE_KEY`
 * @returns the seal
 */
export async function createSeal(secret: Secret): Promise<Seal> {
  const key = await new Promise<Buffer>((resolve, reject) =>
    scrypt(secret.reveal(), SALT, 32, SCRYPT, (error, derived) => (error ? reject(error) : resolve(derived)))
  );
  return {
    seal(text, storedUnder) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(storedUnder));
      const body = Buffer.concat([iv, cipher.update(text), cipher.final(), cipher.getAuthTag()]);
      return `${SEALED_PREFIX}${body.toString('base64url')}`;
    },
    open(sealed, storedUnder) {
      if (!sealed.startsWith(SEALED_PREFIX)) return undefined;
      const body = Buffer.from(sealed.slice(SEALED_PREFIX.length), 'base64url');
      let text: string | undefined;
      try {
        // A body too short for an IV and a tag fails the tag check like any other.
        const decipher = createDecipheriv('aes-256-gcm', key, body.subarray(0, IV_BYTES));
        decipher.setAAD(Buffer.from(storedUnder));
        decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
        text = Buffer.concat([decipher.update(body.subarray(IV_BYTES, body.length - TAG_BYTES)), decipher.final()]).toString('utf8');
      } catch {
        // another key, another place, or altered: the tag does not match
      }
      return text;
    },
  };
}

/** An entry in clear (no key): this prefix, then the grant as JSON. */
const PLAIN_PREFIX = 'p2.';

/**
 * A stored grant as the text of an entry: sealed for its place with a key, else in clear.
 *
 * @param seal the store's seal, if a key is set
 * @param grant the grant
 * @param storedUnder where it is stored (the associated data)
 * @returns `s2.…` sealed, or `p2.` and the grant's JSON
 */
export function sealEntry(seal: Seal | undefined, grant: StoredGrant, storedUnder: string): string {
  const json = JSON.stringify({ token: grant.token, expiresAt: grant.expiresAt, lifetime: grant.lifetime });
  return seal ? seal.seal(json, storedUnder) : `${PLAIN_PREFIX}${json}`;
}

/**
 * The grant of an entry's text: only sealed for this place when a key is set, only in clear otherwise.
 *
 * @param seal the store's seal, if a key is set
 * @param value the entry's text
 * @param storedUnder where it was read from
 * @param description the store, for messages
 * @returns the grant
 * @throws {UntrustedEntryError} for an entry sealed otherwise, not sealed when it must be, or not a grant
 */
export function openEntry(seal: Seal | undefined, value: string, storedUnder: string, description: string): StoredGrant {
  const untrusted = (why: string) => new UntrustedEntryError(`The shared token store ${description} holds an entry ${why}`);
  let json: string | undefined;
  if (seal) {
    if (!value.startsWith(SEALED_PREFIX)) throw untrusted('that is not sealed with SLICER_STORE_KEY; ignoring it');
    json = seal.open(value, storedUnder);
    if (json === undefined) throw untrusted('sealed with another SLICER_STORE_KEY, moved from another entry, or altered; ignoring it');
  } else if (value.startsWith(SEALED_PREFIX)) {
    throw untrusted('sealed with a key: set SLICER_STORE_KEY to use it');
  } else if (value.startsWith(PLAIN_PREFIX)) {
    json = value.slice(PLAIN_PREFIX.length);
  }
  let grant: Partial<StoredGrant> | undefined;
  try {
    // Stryker disable next-line ConditionalExpression: JSON.parse(undefined) throws too, and is caught below
    grant = json === undefined ? undefined : JSON.parse(json);
  } catch {
    // not JSON: refused below
  }
  if (typeof grant?.token !== 'string' || typeof grant.expiresAt !== 'number' || typeof grant.lifetime !== 'number') {
    throw untrusted('that is not a slicer-auth token; ignoring it');
  }
  return { token: grant.token, expiresAt: grant.expiresAt, lifetime: grant.lifetime };
}

/**
 * A new random full-strength key for `SLICER_STORE_KEY` (`slicer-auth store-key`).
 *
 * @returns 32 random bytes, base64url
 */
export function newStoreKey(): string {
  return randomBytes(32).toString('base64url');
}
