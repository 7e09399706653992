/**
 * The sandbox's issued tokens, temporary and permanent: only SHA-256 hashes
 * are kept, a presented value is checked in constant time, expiry runs on the
 * sandbox clock, and the test knobs' violations bend the rules on purpose.
 */
import { timingSafeEqual } from 'node:crypto';
import type { SandboxClock } from './clock.ts';
import { newId, newSecret, sha256 } from './hashing.ts';
import type { TestKnobs } from './test_knobs.ts';

/** An issued token (temporary or permanent); only its hash is kept. */
export interface TokenRecord {
  readonly id: string;
  readonly hash: string;
  readonly username: string;
  readonly kind: 'temporary' | 'permanent';
  /** Service ids the token is valid for. */
  readonly serviceIds: readonly string[];
  readonly name: string;
  readonly createdAt: number;
  /** Expiry (clock ms) of a temporary token. */
  readonly expiresAt: number | undefined;
  revokedAt: number | undefined;
}

/** A freshly issued token: its value (shown once) and its record. */
export interface Issued {
  readonly value: string;
  readonly record: TokenRecord;
}

/** The token table. */
export interface Tokens {
  /** Issues a temporary token for one service. */
  issueTemporary(username: string, serviceId: string): { value: string; lifetimeSeconds: number };
  /** Creates a permanent token. */
  issuePermanent(username: string, name: string, serviceIds: readonly string[]): Issued;
  /** The valid token record for a presented value, or why it is refused. */
  check(value: string): TokenRecord | 'unknown' | 'expired' | 'revoked';
  /** Revokes one of a user's tokens by id; false when there is no such token. */
  revoke(username: string, id: string): boolean;
  /** A user's tokens of one kind, newest first; temporary ones only while valid. */
  list(username: string, kind: TokenRecord['kind']): TokenRecord[];
  /** Forgets the one token of the 'reused-token' violation (its setting changed). */
  forgetReused(): void;
  /** Temporary tokens issued, by service id. */
  issued(): Record<string, number>;
  /** How many records are kept. */
  size(): number;
  /** Forgets every token and count. */
  clear(): void;
}

/**
 * Creates the token table.
 *
 * @param clock the sandbox clock
 * @param knobs lifetime and violations
 * @param onIssue told every value issued (tests that search their outputs for leaked tokens)
 * @returns the table
 */
export function createTokens(clock: SandboxClock, knobs: TestKnobs, onIssue?: (value: string) => void): Tokens {
  const tokens = new Map<string, TokenRecord>(); // by hash
  /** With the 'token-end-ignored' violation on: tokens by the hash of their value without its last character. */
  const byStem = new Map<string, TokenRecord>();
  const issued = new Map<string, number>();
  const reusable = new Map<string, string>(); // service id → the one token of 'reused-token'
  let lastPurge = 0;

  function purgeExpired(): void {
    const now = clock.now();
    if (now - lastPurge < 1000) return;
    lastPurge = now;
    for (const [hash, record] of tokens) {
      if (record.expiresAt !== undefined && record.expiresAt <= now && !knobs.violates('no-expiry')) tokens.delete(hash);
    }
  }

  function issue(username: string, kind: TokenRecord['kind'], serviceIds: readonly string[], name: string): Issued {
    purgeExpired();
    const value = newSecret();
    const now = clock.now();
    const record: TokenRecord = {
      id: newId(),
      hash: sha256(value),
      username,
      kind,
      serviceIds,
      name,
      createdAt: now,
      expiresAt: kind === 'temporary' ? now + knobs.lifetimeSeconds() * 1000 : undefined,
      revokedAt: undefined,
    };
    tokens.set(record.hash, record);
    if (knobs.violates('token-end-ignored')) byStem.set(sha256(value.slice(0, -1)), record);
    onIssue?.(value);
    return { value, record };
  }

  return {
    issueTemporary(username, serviceId) {
      issued.set(serviceId, (issued.get(serviceId) ?? 0) + 1);
      const lifetimeSeconds = knobs.lifetimeSeconds();
      const reused = knobs.violates('reused-token') ? reusable.get(serviceId) : undefined;
      if (reused) return { value: reused, lifetimeSeconds };
      const { value } = issue(username, 'temporary', [serviceId], '');
      if (knobs.violates('reused-token')) reusable.set(serviceId, value);
      return { value, lifetimeSeconds };
    },
    issuePermanent: (username, name, serviceIds) => issue(username, 'permanent', serviceIds, name),
    check(value) {
      const hash = sha256(value);
      // The violation: a value matching a token but for its last character, or one character short or long.
      const loose = knobs.violates('token-end-ignored')
        ? byStem.get(sha256(value.slice(0, -1))) ?? byStem.get(hash) ?? tokens.get(sha256(value.slice(0, -1)))
        : undefined;
      const record = tokens.get(hash) ?? (loose && tokens.get(loose.hash) === loose ? loose : undefined);
      // The Map lookup is by hash; compare again in constant time so timing says nothing of the value.
      if (!record || (!loose && !timingSafeEqual(Buffer.from(record.hash), Buffer.from(hash)))) return 'unknown';
      if (record.revokedAt !== undefined && !(record.kind === 'permanent' && knobs.violates('revoke-noop'))) return 'revoked';
      if (record.expiresAt !== undefined && record.expiresAt <= clock.now() && !knobs.violates('no-expiry')) return 'expired';
      return record;
    },
    revoke(username, id) {
      for (const record of tokens.values()) {
        if (record.id === id && record.username === username) {
          record.revokedAt ??= clock.now();
          return true;
        }
      }
      return false;
    },
    list(username, kind) {
      const now = clock.now();
      return [...tokens.values()]
        .filter((t) => t.username === username && t.kind === kind)
        .filter((t) => kind === 'permanent' || (t.revokedAt === undefined && (t.expiresAt ?? 0) > now))
        .sort((a, b) => b.createdAt - a.createdAt);
    },
    forgetReused: () => reusable.clear(),
    issued: () => Object.fromEntries(issued),
    size: () => tokens.size,
    clear() {
      tokens.clear();
      byStem.clear();
      issued.clear();
      reusable.clear();
    },
  };
}
