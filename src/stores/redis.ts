/**
 * A token store on Redis (`SLICER_STORE_URL=redis://…` or `rediss://…`),
 * for a fleet of machines: one token request per scope per lifetime across
 * all of them. Uses ioredis (an optional peer dependency, imported only here,
 * and this file only when a Redis store is configured).
 *
 * - Keys are namespaced and derived from a hash of (auth URL, user, scope):
 *   no user name or URL in clear. Entries expire with their token.
 * - With a key (`SLICER_STORE_KEY`), every entry is sealed (`seal.ts`:
 *   AES-256-GCM bound to the entry's Redis key, the cipher key from scrypt)
 *   and only sealed entries are used: a plain, moved or altered one is
 *   refused with one warning and replaced by the next token fetched. Nothing
 *   derived from the token is stored beside it. Without a key, anyone who can
 *   read the database can read the tokens.
 * - Compare-and-delete reads the entry, opens it, and deletes it only while
 *   it is still byte for byte what was read (a Lua script).
 * - The lock is `SET key owner NX PX ttl`, released by its owner only,
 *   atomically (the same script): a holder that died leaves a lock that expires.
 * - Every command runs under a short timeout and fails fast while Redis is
 *   unreachable (no offline queue, no automatic reconnection timer); the next
 *   command after a pause reconnects. The socket is unreferenced while idle,
 *   so the store never keeps a process alive.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Redis as RedisClient } from 'ioredis';
import { systemClock } from '../clock.ts';
import { DEFAULTS } from '../defaults.ts';
import type { Secret } from '../redact.ts';
import { describeRedisUrl } from './redis_url.ts';
import { createSeal, openEntry, sealEntry } from './seal.ts';
import { type Release, type StoredGrant, type StoreKey, StoreUnavailableError, type TokenStore } from './store.ts';

/** Options of {@link createRedisStore}. */
export interface RedisStoreOptions {
  /** `redis://[user:pass@]host:port/db` or `rediss://…`. */
  url: string;
  /** Seals entries at rest (AES-256-GCM bound to the entry's key; the cipher key from this secret through scrypt). */
  key?: Secret | undefined;
  /**
   * Time limit of one command, ms.
   * @default DEFAULTS.storeCommandTimeoutMs (500)
   */
  commandTimeoutMs?: number | undefined;
  /**
   * Wall clock, ms since the epoch: an entry expires with its token on it.
   * @default Date.now
   */
  wallNow?: (() => number) | undefined;
  /**
   * Prefix of every key. v2 entries are bound to their key; v1 entries are never read and expire with their tokens.
   * @default "slicer-auth:v2"
   */
  namespace?: string | undefined;
}

/** Deletes a key only while it holds exactly the given value: the lock's release, and compare-and-delete. */
const DELETE_IF_VALUE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

/** What ioredis says of a command on a connection that closed or never opened, whatever the cause. */
const CLOSED = ['Connection is closed.', "Stream isn't writeable and enableOfflineQueue options is false"];

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Creates a store on Redis; connects on first use.
 *
 * @param options URL, sealing key, timeouts
 * @returns the store
 * @throws when ioredis is not installed (the message names the install command)
 */
export async function createRedisStore(options: RedisStoreOptions): Promise<TokenStore> {
  // Stryker disable next-line BlockStatement: ioredis is installed wherever the tests run
  const { Redis } = await import('ioredis').catch(() => {
    // Stryker disable next-line StringLiteral: as above
    throw new StoreUnavailableError('SLICER_STORE_URL names a Redis store, but ioredis is not installed: run "npm install ioredis"');
  });
  const description = describeRedisUrl(options.url);
  const namespace = options.namespace ?? 'slicer-auth:v2';
  const timeout = options.commandTimeoutMs ?? DEFAULTS.storeCommandTimeoutMs;
  const wallNow = options.wallNow ?? systemClock.wallNow;
  const seal = options.key ? await createSeal(options.key) : undefined;

  const client: RedisClient = new Redis(options.url, {
    lazyConnect: true,
    // Stryker disable next-line BooleanLiteral: run sends a command only once connected, so the queue would stay empty; off, a stray command fails at once
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: timeout,
    // Stryker disable next-line ArithmeticOperator: on loopback a connection is made or refused at once; this bounds an unreachable host only
    connectTimeout: timeout * 2,
    // Stryker disable next-line ArrowFunction: any answer but a number means no reconnection timer; the next command reconnects
    retryStrategy: () => null,
    // Stryker disable next-line BooleanLiteral: the ready check adds one INFO round trip before the first command; run waits for it either way
    enableReadyCheck: false,
  });
  /** What the connection being made last failed on (a refused connection, a wrong password): the cause to name. */
  let connectionError: string | undefined;
  // Failures surface on the commands, which name the connection's when theirs is only that it closed; the client warns once.
  client.on('error', (error: Error & { code?: string }) => void (connectionError = error.code ?? error.message));

  let pending = 0;
  /** The connection being made: commands that arrive meanwhile wait for it too (without the offline queue, they would fail). */
  let connecting: Promise<void> | undefined;
  /** Runs a command: connects when needed, keeps the socket referenced only while a command is out. */
  async function run<T>(command: () => Promise<T>): Promise<T> {
    // Set by connect (ioredis keeps it referenced while it connects).
    const stream = () => (client as unknown as { stream: { ref(): void; unref(): void } }).stream;
    try {
      // 'wait' before the first connection; 'end' after one closed (it does not reconnect by itself).
      if (connecting || client.status === 'end' || client.status === 'wait') {
        if (!connecting) {
          connectionError = undefined;
          connecting = client.connect().finally(() => (connecting = undefined));
        }
        await connecting;
      }
      pending++;
      stream().ref();
      return await command();
    } catch (error) {
      const { code, message } = error as Error & { code?: string };
      const reason = code ?? (CLOSED.includes(message) ? connectionError ?? message : message);
      throw new Error(`The shared token store ${description} failed (${reason})`);
    } finally {
      if (pending > 0 && --pending === 0) stream().unref();
    }
  }

  const id = (key: StoreKey) => `${namespace}:token:${sha256(`${key.authUrl}\u0000${key.username}\u0000${key.scope}`)}`;

  return {
    description,
    kind: 'redis',
    async get(key) {
      const value = await run(() => client.get(id(key)));
      return value === null ? undefined : openEntry(seal, value, id(key), description);
    },
    async put(key, grant) {
      const ttl = Math.max(1, Math.round(grant.expiresAt - wallNow()));
      await run(() => client.set(id(key), sealEntry(seal, grant, id(key)), 'PX', ttl));
    },
    async deleteIfSame(key, token) {
      const value = await run(() => client.get(id(key)));
      // Stryker disable next-line ConditionalExpression: decoding null throws, and the catch below returns too
      if (value === null) return;
      let stored: StoredGrant;
      try {
        stored = openEntry(seal, value, id(key), description);
      } catch {
        return; // not an entry of ours: no token of ours in it to forget
      }
      // Deleted only while the entry is exactly what was read: a newer token stored meanwhile stays.
      if (stored.token === token) await run(() => client.eval(DELETE_IF_VALUE, 1, id(key), value));
    },
    async lock(key, ttlMs): Promise<Release | undefined> {
      const owner = randomBytes(16).toString('hex');
      const taken = await run(() => client.set(`${id(key)}:lock`, owner, 'PX', ttlMs, 'NX'));
      if (taken !== 'OK') return undefined;
      return async () => void (await run(() => client.eval(DELETE_IF_VALUE, 1, `${id(key)}:lock`, owner)));
    },
    async close() {
      client.disconnect();
    },
  };
}
