/**
 * The sandbox's user accounts: scrypt-hashed passwords, checked in constant
 * time, with a failed-login limit per user on the sandbox clock.
 */
import { randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';
import type { SandboxClock } from './clock.ts';

/** Failed logins per user within {@link LOGIN_WINDOW_MS} before logins are refused for a while. */
export const MAX_FAILED_LOGINS = 5;
/** Window (and lock time) of the failed-login limit. */
export const LOGIN_WINDOW_MS = 5 * 60_000;

interface User {
  readonly salt: Buffer;
  readonly hash: Buffer;
}

function hashPassword(password: string, salt: Buffer): Buffer {
  // Low cost parameters: this is a sandbox, and load tests log in often.
  return scryptSync(password, salt, 32, { N: 1024, r: 8, p: 1 });
}

/** The accounts. */
export interface Users {
  /** Adds (or replaces) a user. */
  add(username: string, password: string): void;
  /** Checks a password in constant time; counts failures and locks a user out for a while after too many. */
  login(username: string, password: string): 'ok' | 'invalid' | 'locked';
  /** Back to the seeded users and their passwords, with no failure counted. */
  reset(): void;
}

/**
 * Creates the accounts.
 *
 * @param clock the sandbox clock
 * @param seed name → password of the seeded users
 * @returns the accounts
 */
export function createUsers(clock: SandboxClock, seed: Readonly<Record<string, string>>): Users {
  const users = new Map<string, User>();
  const failedLogins = new Map<string, number[]>();
  const add = (username: string, password: string) => {
    const salt = randomBytes(16);
    users.set(username, { salt, hash: hashPassword(password, salt) });
  };
  const reset = () => {
    users.clear();
    failedLogins.clear();
    for (const [name, password] of Object.entries(seed)) add(name, password);
  };
  reset();
  return {
    add,
    login(username, password) {
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
    reset,
  };
}
