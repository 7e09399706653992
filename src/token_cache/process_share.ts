/**
 * What the clients of one process share when no shared store is configured:
 * per clock (the system clock, unless a test gives its own) and set of
 * credentials (auth URL, user and password), a memory store of their tokens
 * and the pauses after failed token requests. A script that makes a client
 * per call then sends one token request per scope and lifetime, not one per
 * client, and a wrong password still costs a handful of token requests a
 * minute.
 */
import { createHash } from 'node:crypto';
import type { Clock } from '../clock.ts';
import type { PauseFailures } from './grant_pause.ts';
import type { Credentials } from '../settings/config.ts';
import { createMemoryStore } from '../stores/memory.ts';
import type { TokenStore } from '../stores/store.ts';

/** What the clients of one set of credentials share. */
export interface ProcessShare {
  /** Their tokens, in this process's memory. */
  readonly store: TokenStore;
  /** Per scope, the pause after a failed token request. */
  readonly failures: PauseFailures;
}

/** By clock, then by a digest of the credentials (no password kept as a key): what their clients share. */
const shares = new WeakMap<Clock, Map<string, ProcessShare>>();

/**
 * What the clients of these credentials on this clock share in this process, made on first use.
 *
 * @param credentials the auth URL, user and password
 * @param clock the clients' clock: the store's entries expire on its wall clock, the pauses on its monotonic one
 * @returns their memory store and pauses
 */
export function processShare(credentials: Credentials, clock: Clock): ProcessShare {
  const id = createHash('sha256').update(JSON.stringify([credentials.authUrl, credentials.username, credentials.password.reveal()]))
    .digest('hex');
  let ofClock = shares.get(clock);
  if (!ofClock) shares.set(clock, ofClock = new Map());
  let share = ofClock.get(id);
  if (!share) {
    share = { store: { ...createMemoryStore(() => clock.wallNow()), kind: 'memory' }, failures: new Map() };
    ofClock.set(id, share);
  }
  return share;
}
