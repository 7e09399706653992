/**
 * The sandbox's state: users, tokens (stored as SHA-256 hashes only), browser
 * sessions, failed-login counts, counters, and the test-mode knobs (faults,
 * token lifetime, deliberate contract violations).
 */
import { createHash, randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';
import type { SandboxClock } from './clock.ts';

/** Lifetime of a temporary token, contract 5.2 / 8. */
export const TOKEN_LIFETIME_SECONDS = 3600;
/** Failed logins per user within {@link LOGIN_WINDOW_MS} before logins are refused for a while. */
export const MAX_FAILED_LOGINS = 5;
/** Window (and lock time) of the failed-login limit. */
export const LOGIN_WINDOW_MS = 5 * 60_000;

/**
 * Deliberate contract violations, settable only in test mode, so the contract
 * suite can show that it catches each one.
 */
export const VIOLATIONS = [
  /** expires_in sent as a JSON number instead of the documented string. */
  'numeric-expires-in',
  /** token_type other than Bearer. */
  'wrong-token-type',
  /** The response names another scope than the one requested. */
  'wrong-scope-echo',
  /** The same access token is returned on every call. */
  'reused-token',
  /** Tokens work for both services whatever their scope. */
  'scope-ignored',
  /** The `token` post argument is not accepted. */
  'post-token-ignored',
  /** Temporary tokens never expire. */
  'no-expiry',
  /** Revoking a permanent token does not stop it working. */
  'revoke-noop',
  /** A JSON body is accepted by the token endpoint (a probe finding, not a rule violation). */
  'json-accepted',
  /** A request without scope gets a slicing-service token (a probe finding, as some real servers do). */
  'default-scope',
] as const;

/** One of {@link VIOLATIONS}. */
export type Violation = (typeof VIOLATIONS)[number];

/** A fault the token endpoint plays instead of (or before) its normal answer. */
export interface Fault {
  /** Status to answer with; without it the normal answer follows the delay. */
  status?: number | undefined;
  /** Delay before answering, ms. */
  delayMs?: number | undefined;
  /** Raw body to answer with. */
  body?: string | undefined;
  /** Content type of that body. */
  contentType?: string | undefined;
  /** Extra headers, e.g. `Retry-After`. */
  headers?: Record<string, string> | undefined;
  /** How many requests it applies to. */
  times: number;
}

/** A user account. */
export interface User {
  readonly username: string;
  readonly salt: Buffer;
  readonly hash: Buffer;
}

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

/** A UI session ends after this long without a request. */
export const SESSION_IDLE_MS = 30 * 60_000;
/** A UI session ends this long after login, however busy. */
export const SESSION_MAX_MS = 12 * 3600_000;

/** A browser session of the UI. */
export interface Session {
  readonly id: string;
  readonly hash: string;
  readonly username: string;
  readonly createdAt: number;
  readonly userAgent: string;
  /** Last request (clock ms); the idle limit counts from it. */
  lastSeenAt: number;
}

/** What {@link createStore} needs. */
export interface StoreOptions {
  clock: SandboxClock;
  /** Seeded users: name → password. */
  users: Record<string, string>;
  /** The slicing service's id. */
  serviceId: string;
  /** The prediction service's id. */
  predictServiceId: string;
}

function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** 256 random bits, base64url. */
function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

function hashPassword(password: string, salt: Buffer): Buffer {
  // Low cost parameters: this is a sandbox, and load tests log in often.
  return scryptSync(password, salt, 32, { N: 1024, r: 8, p: 1 });
}

/** A freshly issued token: its value (shown once) and its record. */
export interface Issued {
  readonly value: string;
  readonly record: TokenRecord;
}

/** Counts for tests and load checks. */
export interface StoreStats {
  /** Temporary tokens issued, by service id. */
  readonly issued: Record<string, number>;
  readonly tokensStored: number;
  readonly sessions: number;
}

/** The sandbox state; see {@link createStore}. */
export interface Store {
  /** The two services' identifiers. */
  readonly serviceIds: { readonly slicer: string; readonly predict: string };
  /** Adds (or replaces) a user. */
  addUser(username: string, password: string): void;
  /** Checks a password in constant time; counts failures and locks a user out for a while after too many. */
  login(username: string, password: string): 'ok' | 'invalid' | 'locked';
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
  /** Opens a browser session; returns its cookie value. */
  openSession(username: string, userAgent: string): string;
  /** The session of a cookie value, if open (and not expired). */
  session(value: string | undefined): Session | undefined;
  /** A user's open sessions. */
  sessionsOf(username: string): Session[];
  /** Closes one of a user's sessions by id. */
  closeSession(username: string, id: string): boolean;
  /** Takes the next fault for the token endpoint, if any. */
  takeFault(): Fault | undefined;
  /** Queues a fault for the token endpoint (test mode). */
  addFault(fault: Fault): void;
  /** Sets the lifetime of tokens issued from now on (test mode). */
  setLifetime(seconds: number): void;
  /** Switches on exactly these contract violations (test mode). */
  setViolations(names: readonly Violation[]): void;
  /** Whether a violation is on. */
  violates(name: Violation): boolean;
  /** Counts for tests and load checks. */
  stats(): StoreStats;
  /** Forgets all tokens, sessions, counters, faults and violations; restores the seeded users and their passwords. */
  reset(): void;
}

/**
 * Creates the sandbox state with its seeded users.
 *
 * @param options clock, users and service ids
 * @returns the store
 */
export function createStore(options: StoreOptions): Store {
  const { clock } = options;
  const users = new Map<string, User>();
  const tokens = new Map<string, TokenRecord>(); // by hash
  const sessions = new Map<string, Session>(); // by hash
  const failedLogins = new Map<string, number[]>();
  const issued = new Map<string, number>();
  const faults: Fault[] = [];
  const violations = new Set<Violation>();
  let lifetimeSeconds = TOKEN_LIFETIME_SECONDS;
  const reusable = new Map<string, string>(); // service id → the one token of 'reused-token'
  let lastPurge = 0;

  function addUser(username: string, password: string): void {
    const salt = randomBytes(16);
    users.set(username, { username, salt, hash: hashPassword(password, salt) });
  }
  for (const [name, password] of Object.entries(options.users)) addUser(name, password);

  function purgeExpired(): void {
    const now = clock.now();
    if (now - lastPurge < 1000) return;
    lastPurge = now;
    for (const [hash, record] of tokens) {
      if (record.expiresAt !== undefined && record.expiresAt <= now && !violations.has('no-expiry')) tokens.delete(hash);
    }
  }

  function issue(username: string, kind: TokenRecord['kind'], serviceIds: readonly string[], name: string): Issued {
    purgeExpired();
    const value = newSecret();
    const now = clock.now();
    const record: TokenRecord = {
      id: randomBytes(8).toString('hex'),
      hash: sha256(value),
      username,
      kind,
      serviceIds,
      name,
      createdAt: now,
      expiresAt: kind === 'temporary' ? now + lifetimeSeconds * 1000 : undefined,
      revokedAt: undefined,
    };
    tokens.set(record.hash, record);
    return { value, record };
  }

  return {
    /** The two services' identifiers. */
    serviceIds: { slicer: options.serviceId, predict: options.predictServiceId },
    /** Adds (or replaces) a user. */
    addUser,

    /** Checks a password in constant time; counts failures and locks a user out for a while after too many. */
    login(username: string, password: string): 'ok' | 'invalid' | 'locked' {
      const now = clock.now();
      const recent = (failedLogins.get(username) ?? []).filter((at) => now - at < LOGIN_WINDOW_MS);
      if (recent.length >= MAX_FAILED_LOGINS) return 'locked';
      const user = users.get(username);
      const candidate = hashPassword(password, user?.salt ?? Buffer.alloc(16));
      if (user && timingSafeEqual(candidate, user.hash)) {
        failedLogins.delete(username);
        return 'ok';
      }
      recent.push(now);
      failedLogins.set(username, recent);
      return 'invalid';
    },

    /** Issues a temporary token for one service. */
    issueTemporary(username: string, serviceId: string) {
      issued.set(serviceId, (issued.get(serviceId) ?? 0) + 1);
      const reused = violations.has('reused-token') ? reusable.get(serviceId) : undefined;
      if (reused) return { value: reused, lifetimeSeconds };
      const { value } = issue(username, 'temporary', [serviceId], '');
      if (violations.has('reused-token')) reusable.set(serviceId, value);
      return { value, lifetimeSeconds };
    },

    /** Creates a permanent token. */
    issuePermanent(username: string, name: string, serviceIds: readonly string[]) {
      return issue(username, 'permanent', serviceIds, name);
    },

    /** The valid token record for a presented value, or why it is refused. */
    check(value: string): TokenRecord | 'unknown' | 'expired' | 'revoked' {
      const hash = sha256(value);
      const record = tokens.get(hash);
      // The Map lookup is by hash; compare again in constant time so timing says nothing of the value.
      if (!record || !timingSafeEqual(Buffer.from(record.hash), Buffer.from(hash))) return 'unknown';
      if (record.revokedAt !== undefined && !(record.kind === 'permanent' && violations.has('revoke-noop'))) return 'revoked';
      if (record.expiresAt !== undefined && record.expiresAt <= clock.now() && !violations.has('no-expiry')) return 'expired';
      return record;
    },

    /** Revokes one of a user's tokens by id; false when there is no such token. */
    revoke(username: string, id: string): boolean {
      for (const record of tokens.values()) {
        if (record.id === id && record.username === username) {
          record.revokedAt ??= clock.now();
          return true;
        }
      }
      return false;
    },

    /** A user's tokens of one kind, newest first; temporary ones only while valid. */
    list(username: string, kind: TokenRecord['kind']): TokenRecord[] {
      const now = clock.now();
      return [...tokens.values()]
        .filter((t) => t.username === username && t.kind === kind)
        .filter((t) => kind === 'permanent' || (t.revokedAt === undefined && (t.expiresAt ?? 0) > now))
        .sort((a, b) => b.createdAt - a.createdAt);
    },

    /** Opens a browser session; returns its cookie value. */
    openSession(username: string, userAgent: string): string {
      const value = newSecret();
      const now = clock.now();
      const session = { id: randomBytes(8).toString('hex'), hash: sha256(value), username, createdAt: now, lastSeenAt: now, userAgent };
      sessions.set(session.hash, session);
      return value;
    },
    /** The session of a cookie value, if open and within its idle and absolute limits (on the sandbox clock). */
    session(value: string | undefined): Session | undefined {
      const session = value ? sessions.get(sha256(value)) : undefined;
      if (!session) return undefined;
      const now = clock.now();
      if (now - session.lastSeenAt > SESSION_IDLE_MS || now - session.createdAt > SESSION_MAX_MS) {
        sessions.delete(session.hash);
        return undefined;
      }
      session.lastSeenAt = now;
      return session;
    },
    /** A user's open sessions. */
    sessionsOf(username: string): Session[] {
      return [...sessions.values()].filter((s) => s.username === username);
    },
    /** Closes one of a user's sessions by id. */
    closeSession(username: string, id: string): boolean {
      for (const [hash, s] of sessions) {
        if (s.id === id && s.username === username) return sessions.delete(hash);
      }
      return false;
    },

    /** Takes the next fault for the token endpoint, if any. */
    takeFault(): Fault | undefined {
      const fault = faults[0];
      if (!fault) return undefined;
      if (--fault.times <= 0) faults.shift();
      return fault;
    },
    /** Queues a fault for the token endpoint (test mode). */
    addFault(fault: Fault): void {
      faults.push(fault);
    },
    /** Sets the lifetime of tokens issued from now on (test mode). */
    setLifetime(seconds: number): void {
      lifetimeSeconds = seconds;
    },
    /** Switches on exactly these contract violations (test mode). */
    setViolations(names: readonly Violation[]): void {
      violations.clear();
      for (const name of names) violations.add(name);
      reusable.clear();
    },
    /** Whether a violation is on. */
    violates: (name: Violation) => violations.has(name),

    /** Counts for tests and load checks. */
    stats(): StoreStats {
      return { issued: Object.fromEntries(issued), tokensStored: tokens.size, sessions: sessions.size };
    },

    /** Forgets all tokens, sessions, counters, faults and violations; keeps the seeded users. */
    reset(): void {
      tokens.clear();
      sessions.clear();
      failedLogins.clear();
      issued.clear();
      faults.length = 0;
      violations.clear();
      reusable.clear();
      lifetimeSeconds = TOKEN_LIFETIME_SECONDS;
      users.clear();
      for (const [name, password] of Object.entries(options.users)) addUser(name, password);
    },
  };
}
