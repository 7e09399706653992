/**
 * The sandbox's state, one object over its parts: users (`users.ts`), issued
 * tokens (`tokens.ts`), browser sessions (`sessions.ts`) and the test-mode
 * knobs (`test_knobs.ts`). Routes and tests use this one interface.
 */
import type { SandboxClock } from './clock.ts';
import { createSessions, type Session } from './sessions.ts';
import { createTestKnobs, type Fault, type FaultPlace, type Violation } from './test_knobs.ts';
import { createTokens, type Issued, type TokenRecord } from './tokens.ts';
import { createUsers } from './users.ts';

export { LOGIN_WINDOW_MS, MAX_FAILED_LOGINS } from './users.ts';
export { type Session, SESSION_IDLE_MS, SESSION_MAX_MS } from './sessions.ts';
export { type Fault, FAULT_PLACES, type FaultPlace, TOKEN_LIFETIME_SECONDS, type Violation, VIOLATIONS } from './test_knobs.ts';
export type { Issued, TokenRecord } from './tokens.ts';

/** What {@link createStore} needs. */
export interface StoreOptions {
  clock: SandboxClock;
  /** Seeded users: name → password. */
  users: Record<string, string>;
  /** The slicing service's id. */
  serviceId: string;
  /** The prediction service's id. */
  predictServiceId: string;
  /** Told every token value issued, temporary and permanent (test mode: tests search their outputs for them). */
  onIssue?: ((value: string) => void) | undefined;
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
  /** Takes the next fault queued for a place (the token endpoint unless given), if any. */
  takeFault(at?: FaultPlace): Fault | undefined;
  /** Queues a fault for its place (test mode). */
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
  const users = createUsers(clock, options.users);
  const knobs = createTestKnobs();
  const tokens = createTokens(clock, knobs, options.onIssue);
  const sessions = createSessions(clock);
  return {
    serviceIds: { slicer: options.serviceId, predict: options.predictServiceId },
    addUser: users.add,
    login: users.login,
    issueTemporary: tokens.issueTemporary,
    issuePermanent: tokens.issuePermanent,
    check: tokens.check,
    revoke: tokens.revoke,
    list: tokens.list,
    openSession: sessions.open,
    session: sessions.get,
    sessionsOf: sessions.of,
    closeSession: sessions.close,
    takeFault: knobs.takeFault,
    addFault: knobs.addFault,
    setLifetime: knobs.setLifetime,
    setViolations(names) {
      knobs.setViolations(names);
      tokens.forgetReused();
    },
    violates: knobs.violates,
    stats: () => ({ issued: tokens.issued(), tokensStored: tokens.size(), sessions: sessions.size() }),
    reset() {
      tokens.clear();
      sessions.clear();
      knobs.reset();
      users.reset();
    },
  };
}
