/**
 * A token store on Redis (`SLICER_STORE_URL=redis://…` or `rediss://…`),
 * for a fleet of machines: one token request per scope per lifetime across
 * all of them. Uses ioredis (an optional peer dependency, imported only here,
 * and this file only when a Redis store is configured).
 *
 * - Keys are namespaced and derived from a hash of (auth URL, user, scope):
 *   no user name or URL in clear. Entries expire with their token.
 * - With a key (`SLICER_STORE_KEY`), tokens at rest are encrypted with
 *   AES-256-GCM; without one, anyone who can read the database can read them.
 * - The lock is `SET key owner NX PX ttl`, released by its owner only,
 *   atomically (a Lua script): a holder that died leaves a lock that expires.
 * - Every command runs under a short timeout and fails fast while Redis is
 *   unreachable (no offline queue, no automatic reconnection timer); the next
 *   command after a pause reconnects. The socket is unreferenced while idle,
 *   so the store never keeps a process alive.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { Redis as RedisClient } from 'ioredis';
import { systemClock } from '../clock.ts';
import type { Secret } from '../redact.ts';
import { describeRedisUrl } from './redis_url.ts';
import type { Release, StoredGrant, StoreKey, TokenStore } from './store.ts';

/** Options of {@link createRedisStore}. */
export interface RedisStoreOptions {
  /** `redis://[user:pass@]host:port/db` or `rediss://…`. */
  url: string;
  /** Encrypts tokens at rest (AES-256-GCM, key = SHA-256 of this secret). */
  key?: Secret | undefined;
  /**
   * Time limit of one command, ms.
   * @default 500
   */
  commandTimeoutMs?: number | undefined;
  /**
   * Wall clock, ms since the epoch: an entry expires with its token on it.
   * @default Date.now
   */
  wallNow?: (() => number) | undefined;
  /**
   * Prefix of every key.
   * @default "slicer-auth:v1"
   */
  namespace?: string | undefined;
}

const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;
const DELETE_IF_SAME = `local v = redis.call('get', KEYS[1])
if v and string.sub(v, 1, 64) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Creates a store on Redis; connects on first use.
 *
 * @param options URL, encryption key, timeouts
 * @returns the store
 * @throws when ioredis is not installed (the message names the install command)
 */
export async function createRedisStore(options: RedisStoreOptions): Promise<TokenStore> {
  const { Redis } = await import('ioredis').catch(() => {
    throw new Error('SLICER_STORE_URL names a Redis store, but ioredis is not installed: run "npm install ioredis"');
  });
  const description = describeRedisUrl(options.url);
  const namespace = options.namespace ?? 'slicer-auth:v1';
  const timeout = options.commandTimeoutMs ?? 500;
  const wallNow = options.wallNow ?? systemClock.wallNow;
  const cipherKey = options.key ? createHash('sha256').update(options.key.reveal()).digest() : undefined;
  const client: RedisClient = new Redis(options.url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: timeout,
    connectTimeout: timeout * 2,
    retryStrategy: () => null, // no reconnection timer: the next command reconnects
    enableReadyCheck: false,
  });
  client.on('error', () => {}); // failures surface on the commands; the client warns once
  client.on('connect', () => (client as unknown as { stream?: { unref(): void } }).stream?.unref());

  let pending = 0;
  /** Runs a command: connects when needed, keeps the socket referenced only while a command is out. */
  async function run<T>(command: () => Promise<T>): Promise<T> {
    const stream = () => (client as unknown as { stream?: { ref(): void; unref(): void } }).stream;
    try {
      if (client.status === 'end' || client.status === 'wait' || client.status === 'close') await client.connect();
      pending++;
      stream()?.ref();
      return await command();
    } catch (error) {
      const reason = (error as { code?: string }).code ?? (error as Error).message;
      throw new Error(`The shared token store ${description} failed (${reason})`);
    } finally {
      if (pending > 0 && --pending === 0) stream()?.unref();
    }
  }

  const id = (key: StoreKey) => `${namespace}:token:${sha256(`${key.authUrl}\u0000${key.username}\u0000${key.scope}`)}`;

  /** `<sha256 of the token><payload>`: the hash lets Lua compare tokens without reading them. */
  function encode(grant: StoredGrant): string {
    const json = JSON.stringify(grant);
    if (!cipherKey) return `${sha256(grant.token)}p${json}`;
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', cipherKey, iv);
    const sealed = Buffer.concat([iv, cipher.update(json, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${sha256(grant.token)}e${sealed.toString('base64')}`;
  }

  function decode(value: string): StoredGrant {
    const kind = value[64];
    const body = value.slice(65);
    if (kind === 'p') {
      try {
        return JSON.parse(body) as StoredGrant;
      } catch {
        throw new Error(`The shared token store ${description} holds an entry that is not a slicer-auth token`);
      }
    }
    if (kind !== 'e') throw new Error(`The shared token store ${description} holds an entry that is not a slicer-auth token`);
    if (!cipherKey) throw new Error(`The shared token store ${description} holds encrypted tokens: set SLICER_STORE_KEY`);
    const sealed = Buffer.from(body, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', cipherKey, sealed.subarray(0, 12));
    decipher.setAuthTag(sealed.subarray(sealed.length - 16));
    try {
      return JSON.parse(
        Buffer.concat([decipher.update(sealed.subarray(12, sealed.length - 16)), decipher.final()]).toString('utf8'),
      ) as StoredGrant;
    } catch {
      throw new Error(`The shared token store ${description} holds tokens encrypted with another SLICER_STORE_KEY`);
    }
  }

  return {
    description,
    kind: 'redis',
    async get(key) {
      const value = await run(() => client.get(id(key)));
      if (value === null) return undefined;
      const grant = decode(value);
      if (typeof grant.token !== 'string' || typeof grant.expiresAt !== 'number' || typeof grant.lifetime !== 'number') {
        throw new Error(`The shared token store ${description} holds an entry that is not a slicer-auth token`);
      }
      return grant;
    },
    async put(key, grant) {
      const ttl = Math.max(1, Math.round(grant.expiresAt - wallNow()));
      await run(() => client.set(id(key), encode(grant), 'PX', ttl));
    },
    async deleteIfSame(key, token) {
      await run(() => client.eval(DELETE_IF_SAME, 1, id(key), sha256(token)));
    },
    async lock(key, ttlMs): Promise<Release | undefined> {
      const owner = randomBytes(16).toString('hex');
      const taken = await run(() => client.set(`${id(key)}:lock`, owner, 'PX', ttlMs, 'NX'));
      if (taken !== 'OK') return undefined;
      return async () => void (await run(() => client.eval(RELEASE, 1, `${id(key)}:lock`, owner)));
    },
    async close() {
      client.disconnect();
    },
  };
}
