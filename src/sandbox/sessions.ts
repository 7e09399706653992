/**
 * Browser sessions of the sandbox's UI: cookie values kept as hashes, ending
 * after {@link SESSION_IDLE_MS} idle or {@link SESSION_MAX_MS} after login, on
 * the sandbox clock.
 */
import type { SandboxClock } from './clock.ts';
import { newId, newSecret, sha256 } from './hashing.ts';

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

/** The open sessions. */
export interface Sessions {
  /** Opens a session; returns its cookie value. */
  open(username: string, userAgent: string): string;
  /** The session of a cookie value, if open and within its limits; the request counts as activity. */
  get(value: string | undefined): Session | undefined;
  /** A user's open sessions. */
  of(username: string): Session[];
  /** Closes one of a user's sessions by id; false when there is none. */
  close(username: string, id: string): boolean;
  /** How many are kept. */
  size(): number;
  /** Closes every session. */
  clear(): void;
}

/**
 * Creates the session table.
 *
 * @param clock the sandbox clock
 * @returns the sessions
 */
export function createSessions(clock: SandboxClock): Sessions {
  const sessions = new Map<string, Session>(); // by hash of the cookie value
  return {
    open(username, userAgent) {
      const value = newSecret();
      const now = clock.now();
      const session = { id: newId(), hash: sha256(value), username, createdAt: now, lastSeenAt: now, userAgent };
      sessions.set(session.hash, session);
      return value;
    },
    get(value) {
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
    of: (username) => [...sessions.values()].filter((s) => s.username === username),
    close(username, id) {
      for (const [hash, s] of sessions) {
        if (s.id === id && s.username === username) return sessions.delete(hash);
      }
      return false;
    },
    size: () => sessions.size,
    clear: () => sessions.clear(),
  };
}
