/**
 * A token store in one file (`SLICER_CACHE_FILE`): repeated one-off runs and
 * parallel workers of one machine reuse a valid temporary token.
 *
 * - One JSON file, mode 0600, written atomically (temporary file + rename),
 *   keyed by auth URL + user + scope; it never holds the password. Its
 *   directory is created when missing, mode 0700.
 * - With a key (`SLICER_STORE_KEY`), every entry is sealed as in Redis
 *   (`seal.ts`: bound to its place in the file) and only sealed entries are
 *   used; without one, entries are in clear, and only in clear are used.
 * - The lock is a file (`<file>.lock`, created exclusively, holding the
 *   owner's pid). A lock whose process is gone, or older than the lock's time
 *   to live, is broken, so a crash cannot leave it stuck.
 * - A corrupt, unreadable or foreign file is refused (and left as it is). So
 *   is, on POSIX, a file that is a symbolic link, belongs to another user, or
 *   that group or others may read or write: its tokens could be forged, or
 *   read by someone else.
 * - An odd lock path (a symbolic link, a directory, unreadable) is never
 *   waited on (refused), and removed once stale.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, lstatSync, openSync, readFileSync, renameSync, rmdirSync, rmSync, type Stats, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as v from 'valibot';
import { systemClock } from '../clock.ts';
import { makeFolders } from '../folders.ts';
import type { Secret } from '../redact.ts';
import { createSeal, openEntry, type Seal, sealEntry } from './seal.ts';
import { isDenoRefusal } from '../settings/deno_refusal.ts';
import { SETTINGS } from '../settings/settings.ts';
import type { Release, StoredGrant, StoreKey, TokenStore } from './store.ts';

/** The runtime's `process` (Node, Bun, Deno 2), not imported: `node:process` as a module costs ~1.5 ms at start-up. */
const process = globalThis.process;

/** An entry: a grant in clear, or sealed (`seal.ts`) with its expiry beside it, so that expired entries are dropped unopened. */
const EntrySchema = v.union([
  v.object({ token: v.string(), expiresAt: v.number(), lifetime: v.number() }),
  v.object({ sealed: v.string(), expiresAt: v.number() }),
]);
const CacheFileSchema = v.object({
  format: v.literal('slicer-auth-token-cache'),
  version: v.literal(1),
  entries: v.record(v.string(), EntrySchema),
});
type CacheFile = v.InferOutput<typeof CacheFileSchema>;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // Stryker disable next-line ConditionalExpression,StringLiteral: EPERM (a live process of another user) cannot happen to the root user the tests run as
    return (error as { code?: string }).code === 'EPERM';
  }
  return true;
}

/** Why a cache file is not used, and what makes it usable. */
export interface Distrust {
  readonly why: string;
  readonly fix: string;
}

/**
 * Why a cache file must not be used: a folder, a pipe or a device; or (POSIX) a symbolic link,
 * another user's file, or one that group or others may read or write, whose
 * tokens could be forged, or read by someone else.
 *
 * @param file the cache file
 * @returns the reason and the fix, or undefined when it is trustworthy or missing
 */
export function distrust(file: string): Distrust | undefined {
  let stat: Stats;
  try {
    stat = lstatSync(file);
  } catch {
    return undefined; // missing (or unreadable: reading says so)
  }
  const fix = `chmod 600 ${file} as its owner, or remove it (it is recreated)`;
  if (stat.isSymbolicLink()) return { why: 'it is a symbolic link', fix };
  if (stat.isDirectory()) {
    return { why: 'it is a folder', fix: `set ${SETTINGS.cacheFile.env} to a file, such as ${join(file, 'tokens.json')}` };
  }
  // Reading a pipe would wait for a writer, for ever; a device is no place for tokens either.
  if (!stat.isFile()) {
    return {
      why: 'it is no regular file (a pipe, a socket or a device)',
      fix: `set ${SETTINGS.cacheFile.env} to a file, such as ${join(dirname(file), 'tokens.json')}`,
    };
  }
  // Stryker disable next-line ConditionalExpression,StringLiteral: the tests run on Linux, where neither check can differ
  if (process.platform === 'win32') return undefined;
  // Stryker disable next-line ConditionalExpression: the tests run on Linux, where neither check can differ
  if (typeof process.getuid === 'function' && stat.uid !== process.getuid()) return { why: 'it belongs to another user', fix };
  if ((stat.mode & 0o077) !== 0) return { why: `group or others may read or write it (mode ${(stat.mode & 0o777).toString(8)})`, fix };
  return undefined;
}

/**
 * The Deno flags that let a cache file be used: read and write in its directory, and its user's id, by which
 * {@link distrust} tells the file is its user's own.
 *
 * @param file the cache file
 * @returns the flags
 */
export function denoCacheFlags(file: string): string {
  const directory = dirname(file);
  return `--allow-read=${directory} --allow-write=${directory} --allow-sys=uid`;
}

/**
 * Creates a store in a file.
 *
 * @param file the cache file (created with mode 0600 when missing)
 * @param wallNow wall clock, ms since the epoch
 * @param key `SLICER_STORE_KEY`: then entries are sealed, and only sealed ones are used
 * @returns the store
 */
export function createFileStore(file: string, wallNow: () => number = systemClock.wallNow, key?: Secret): TokenStore {
  const description = `file ${file}`;
  const lockFile = `${file}.lock`;
  const sealing = key ? createSeal(key) : undefined;
  /** Creates the file's directory when it is missing, as `mkdir -p` does, private to its owner (mode 0700). */
  const makeDirectory = () => makeFolders(dirname(file), 0o700);
  const id = (key: StoreKey) => `${key.authUrl} ${key.username} ${key.scope}`;
  /** Why a file system call failed: its code; or, where Deno's permissions refused it, the flags that allow the cache. */
  const failure = (error: unknown) =>
    // Stryker disable next-line all: only Deno raises errors of no code here, and npm run test:runtimes checks them under Deno
    (error as { code?: string }).code ?? (isDenoRefusal(error) ? `Deno does not allow it: run with ${denoCacheFlags(file)}` : 'error');

  /**
   * An entry's grant: one in clear taken as it is without a key; else opened as Redis's are, which refuses a sealed one
   * without the key and, with it, one in clear (no sealed text) or sealed otherwise.
   */
  const opened = (entry: CacheFile['entries'][string], storedUnder: string, seal: Seal | undefined) =>
    // Stryker disable next-line StringLiteral: an entry in clear has no sealed text, and openEntry refuses any unsealed text alike
    !('sealed' in entry) && !seal ? entry : openEntry(seal, 'sealed' in entry ? entry.sealed : '', storedUnder, description);

  /** The file's content; throws (message shown as the warning) when it must be left alone. */
  function read(): CacheFile {
    const distrusted = distrust(file);
    if (distrusted) {
      throw new Error(`Ignoring the token cache ${file}: ${distrusted.why}; it is neither read nor written; ${distrusted.fix}`);
    }
    let text: string;
    try {
      // Stryker disable next-line StringLiteral: JSON.parse reads a Buffer as its UTF-8 text too
      text = readFileSync(file, 'utf8');
    } catch (error) {
      if ((error as { code?: string }).code === 'ENOENT') return { format: 'slicer-auth-token-cache', version: 1, entries: {} };
      throw new Error(`Ignoring the token cache ${file}: cannot read it (${failure(error)})`);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      // not JSON: the schema below refuses undefined
    }
    const parsed = v.safeParse(CacheFileSchema, json);
    if (!parsed.success) {
      throw new Error(
        `Ignoring the token cache ${file}: it is not a slicer-auth token cache (corrupt or foreign); remove it to use the cache`,
      );
    }
    return parsed.output;
  }

  function write(content: CacheFile, change: (entries: CacheFile['entries']) => void): void {
    const wall = wallNow();
    const entries = Object.fromEntries(Object.entries(content.entries).filter(([, e]) => e.expiresAt > wall));
    change(entries);
    const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      makeDirectory();
      // Stryker disable next-line ObjectLiteral: the chmod below makes the mode exact either way; this narrows the moment before it
      writeFileSync(temporary, JSON.stringify({ format: content.format, version: content.version, entries }), { mode: 0o600 });
      chmodSync(temporary, 0o600); // the umask may have cleared bits, never added: make it exact
      renameSync(temporary, file);
    } catch (error) {
      rmSync(temporary, { force: true });
      throw new Error(`Cannot write the token cache ${file} (${failure(error)})`);
    }
  }

  return {
    description,
    kind: 'file',
    get: async (key) => {
      const entry = read().entries[id(key)];
      return entry && opened(entry, id(key), await sealing);
    },
    put: async (key, grant: StoredGrant) => {
      const seal = await sealing;
      const entry = seal ? { sealed: sealEntry(seal, grant, id(key)), expiresAt: grant.expiresAt } : grant;
      write(read(), (entries) => void (entries[id(key)] = entry));
    },
    deleteIfSame: async (key, token) => {
      const content = read();
      const entry = content.entries[id(key)];
      let stored: StoredGrant | undefined;
      try {
        stored = entry && opened(entry, id(key), await sealing);
      } catch {
        // not an entry this store can open: no token of ours in it to forget
      }
      if (stored?.token === token) write(content, (entries) => void delete entries[id(key)]);
    },
    lock: async (_key, ttlMs): Promise<Release | undefined> => {
      try {
        makeDirectory();
      } catch (error) {
        throw new Error(`Cannot make the folder of the token cache ${file} (${failure(error)})`);
      }
      try {
        closeSync(openSync(lockFile, 'wx', 0o600));
        writeFileSync(lockFile, String(process.pid));
        return async () => rmSync(lockFile, { force: true });
      } catch (error) {
        if ((error as { code?: string }).code !== 'EEXIST') throw error;
      }
      let stat: Stats | undefined;
      try {
        stat = lstatSync(lockFile);
      } catch {
        // released meanwhile
      }
      // Stryker disable next-line ConditionalExpression: true only when the holder releases between openSync and lstatSync, a race no test can time
      if (stat === undefined) return undefined; // look again
      const old = wallNow() - stat.mtimeMs > ttlMs;
      if (!stat.isFile()) {
        try {
          // Only a stale link or empty directory is removed; anything else is not ours to force.
          // Stryker disable next-line ObjectLiteral,BooleanLiteral: force only spares an error for a file already gone, which the catch ignores too
          if (old) stat.isDirectory() ? rmdirSync(lockFile) : rmSync(lockFile, { force: true });
        } catch {
          // left as it is
        }
        throw new Error(`The token cache lock ${lockFile} is not a regular file; fetching a token without it`);
      }
      let text: string | undefined;
      try {
        // Stryker disable next-line StringLiteral: Number() reads a Buffer as its text too
        text = readFileSync(lockFile, 'utf8');
      } catch {
        // released meanwhile, or unreadable
      }
      // Stryker disable next-line ConditionalExpression,StringLiteral: true only when the holder releases between lstatSync and this read, a race no test can time
      if (text === undefined) throw new Error(`Cannot read the token cache lock ${lockFile}; fetching a token without it`);
      const pid = Number(text);
      // Stryker disable next-line EqualityOperator,ObjectLiteral,BooleanLiteral: pid 0 is our own process group, always alive, so the lock's age decides either way; force as above
      if ((pid > 0 && !alive(pid)) || old) rmSync(lockFile, { force: true });
      return undefined;
    },
  };
}
