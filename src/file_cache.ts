/**
 * Opt-in token cache shared across processes (`SLICER_TOKEN_CACHE`): repeated
 * one-off runs and parallel workers reuse a valid temporary token.
 *
 * - One JSON file, mode 0600, written atomically (temporary file + rename),
 *   keyed by auth URL + user + scope; it never holds the password.
 * - Processes that need a new token take a lock file (`<file>.lock`, created
 *   exclusively); the others wait and read the token it writes. A lock whose
 *   process is gone, or that is older than any token request can take, is
 *   broken, so a crash cannot leave it stuck.
 * - A corrupt, unreadable or foreign file is ignored with a warning (and left
 *   as it is); tokens are then fetched directly. So is, on POSIX, a file that
 *   is a symbolic link, belongs to another user, or that group or others may
 *   read or write: its tokens could be forged, or read by someone else.
 * - An odd lock path (a symbolic link, a directory, unreadable) is never
 *   waited on: the token is fetched without the lock, and the path removed
 *   once stale.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, lstatSync, openSync, readFileSync, renameSync, rmdirSync, rmSync, type Stats, writeFileSync } from 'node:fs';
import process from 'node:process';
import * as v from 'valibot';
import { refreshMargin } from './token_cache.ts';
import type { Grant, GrantFetcher } from './token_source.ts';

/** A lock older than this is stale: longer than a token request with its retries can take. */
const STALE_LOCK_MS = 60_000;
/** How often a waiting process looks again. */
const POLL_MS = 50;
/** How long a process waits for another's token before fetching its own. */
const MAX_WAIT_MS = 45_000;

const CacheFileSchema = v.object({
  format: v.literal('slicer-auth-token-cache'),
  version: v.literal(1),
  entries: v.record(v.string(), v.object({ token: v.string(), expiresAt: v.number(), lifetime: v.number() })),
});
type CacheFile = v.InferOutput<typeof CacheFileSchema>;

/** What {@link createFileCache} needs. */
export interface FileCacheOptions {
  /** The cache file. */
  file: string;
  /** Auth URL and user: with the scope they form each entry's key. */
  authUrl: string;
  username: string;
  /** Monotonic clock of the client, ms. */
  now: () => number;
  /** Wall clock, ms since the epoch (shared between processes). */
  wallNow?: () => number;
  /** Configured refresh margin, ms. */
  marginMs?: number | undefined;
  /** Where warnings go. */
  warn: (message: string) => void;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === 'EPERM';
  }
}

/**
 * Why a cache file must not be trusted (POSIX): a symbolic link, another
 * user's file, or one that group or others may read or write. Its tokens
 * could be forged, or read by someone else.
 *
 * @param file the cache file
 * @returns the reason, or undefined when it is trustworthy or missing
 */
export function distrust(file: string): string | undefined {
  let stat: Stats;
  try {
    stat = lstatSync(file);
  } catch {
    return undefined; // missing (or unreadable: reading says so)
  }
  if (stat.isSymbolicLink()) return 'it is a symbolic link';
  if (process.platform === 'win32') return undefined;
  if (typeof process.getuid === 'function' && stat.uid !== process.getuid()) return 'it belongs to another user';
  if ((stat.mode & 0o077) !== 0) return `group or others may read or write it (mode ${(stat.mode & 0o777).toString(8)}; chmod 600 it)`;
  return undefined;
}

/** The shared file cache in front of a grant fetcher. */
export interface FileCache {
  /** Fetches a grant: from the file while fresh, else from the token endpoint (written back). */
  readonly fetchGrant: GrantFetcher;
  /**
   * Forgets a token a service refused: it is never read back from the file,
   * and the next write drops it (only if it is still the stored one).
   */
  forget(token: string): void;
}

/**
 * Wraps a grant fetcher with the shared file cache.
 *
 * @param fetchGrant fetches a new grant from the token endpoint
 * @param options file, key parts, clocks and warning sink
 * @returns the cache
 */
export function createFileCache(fetchGrant: GrantFetcher, options: FileCacheOptions): FileCache {
  const refused = new Set<string>();
  const { file } = options;
  const lockFile = `${file}.lock`;
  const wallNow = options.wallNow ?? Date.now;
  const warned = new Set<string>();
  const warnOnce = (message: string) => {
    if (!warned.has(message)) options.warn(message);
    warned.add(message);
  };
  const key = (scope: string) => `${options.authUrl} ${options.username} ${scope}`;

  /** The file's content; undefined when it must be left alone (untrusted, foreign, corrupt, unreadable). */
  function read(): CacheFile | undefined {
    const why = distrust(file);
    if (why) {
      warnOnce(`Ignoring the token cache ${file}: ${why}; it is neither read nor written`);
      return undefined;
    }
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      if ((error as { code?: string }).code === 'ENOENT') return { format: 'slicer-auth-token-cache', version: 1, entries: {} };
      warnOnce(`Ignoring the token cache ${file}: cannot read it (${(error as { code?: string }).code ?? 'error'})`);
      return undefined;
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    const parsed = v.safeParse(CacheFileSchema, json);
    if (!parsed.success) {
      warnOnce(`Ignoring the token cache ${file}: it is not a slicer-auth token cache (corrupt or foreign); remove it to use the cache`);
      return undefined;
    }
    return parsed.output;
  }

  /** A stored grant that is not yet in its refresh margin. */
  function usable(content: CacheFile | undefined, scope: string): Grant | undefined {
    const entry = content?.entries[key(scope)];
    if (!entry || refused.has(entry.token)) return undefined;
    const remaining = entry.expiresAt - wallNow();
    if (remaining <= refreshMargin(entry.lifetime, options.marginMs) + 1000) return undefined;
    return { token: entry.token, expiresAt: options.now() + remaining, lifetime: entry.lifetime };
  }

  function write(content: CacheFile, scope: string, grant: Grant): void {
    const wall = wallNow();
    const entries = Object.fromEntries(Object.entries(content.entries).filter(([, e]) => e.expiresAt > wall && !refused.has(e.token)));
    entries[key(scope)] = { token: grant.token, expiresAt: wall + (grant.expiresAt - options.now()), lifetime: grant.lifetime };
    const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    writeFileSync(temporary, JSON.stringify({ format: content.format, version: content.version, entries }), { mode: 0o600 });
    chmodSync(temporary, 0o600); // the umask may have cleared bits, never added: make it exact
    renameSync(temporary, file);
  }

  /**
   * Takes the lock: `locked`, `wait` (another process holds it), or `bypass`
   * (the lock path is odd — a symbolic link, a directory, unreadable — and
   * waiting on it could last until it is stale: fetch without it).
   */
  function tryLock(): 'locked' | 'wait' | 'bypass' {
    try {
      closeSync(openSync(lockFile, 'wx', 0o600));
      writeFileSync(lockFile, String(process.pid));
      return 'locked';
    } catch (error) {
      if ((error as { code?: string }).code !== 'EEXIST') throw error;
    }
    let stat: Stats;
    try {
      stat = lstatSync(lockFile);
    } catch {
      return 'wait'; // released meanwhile: look again
    }
    const old = wallNow() - stat.mtimeMs > STALE_LOCK_MS;
    if (!stat.isFile()) {
      try {
        // Only a stale link or empty directory is removed; anything else is not ours to force.
        if (old) stat.isDirectory() ? rmdirSync(lockFile) : rmSync(lockFile, { force: true });
      } catch {
        // left as it is
      }
      warnOnce(`The token cache lock ${lockFile} is not a regular file; fetching a token without it`);
      return 'bypass';
    }
    let pid: number;
    try {
      pid = Number(readFileSync(lockFile, 'utf8'));
    } catch {
      warnOnce(`Cannot read the token cache lock ${lockFile}; fetching a token without it`);
      return 'bypass';
    }
    if ((pid > 0 && !alive(pid)) || old) rmSync(lockFile, { force: true });
    return 'wait';
  }

  const cached: GrantFetcher = async (scope) => {
    let content = read();
    if (!content) return fetchGrant(scope);
    const cached = usable(content, scope);
    if (cached) return cached;
    const waitUntil = wallNow() + MAX_WAIT_MS;
    for (let state = tryLock(); state !== 'locked'; state = tryLock()) {
      if (state === 'bypass') return fetchGrant(scope);
      await sleep(POLL_MS);
      const written = usable(read(), scope);
      if (written) return written;
      if (wallNow() > waitUntil) {
        warnOnce(`The token cache lock ${lockFile} stayed taken; fetching a token without it`);
        return fetchGrant(scope);
      }
    }
    try {
      content = read();
      const meanwhile = usable(content, scope);
      if (meanwhile || !content) return meanwhile ?? fetchGrant(scope);
      const grant = await fetchGrant(scope);
      try {
        write(content, scope, grant);
      } catch (error) {
        warnOnce(`Cannot write the token cache ${file} (${(error as { code?: string }).code ?? 'error'}); continuing without it`);
      }
      return grant;
    } finally {
      rmSync(lockFile, { force: true });
    }
  };
  return { fetchGrant: cached, forget: (token) => void refused.add(token) };
}
