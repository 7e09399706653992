/**
 * The doctor's shared-store check. Read only unless `--write-check` is given:
 * a Redis store is read (one GET of a doctor key), a cache file is only
 * inspected (owner, mode, symlink, and whether this process may read and
 * write it); nothing is locked, written or deleted.
 */
import { accessSync, constants } from 'node:fs';
import { resolve } from 'node:path';
import process from 'node:process';
import { type Check, fail, ok, type Outcome, skip, warn } from './check.ts';
import { nearestThere } from '../../folders.ts';
import type { Config } from '../../settings/config.ts';
import { isDenoRefusal } from '../../settings/deno_refusal.ts';
import { denoCacheFlags, distrust } from '../../stores/file.ts';
import { describeRedisUrl } from '../../stores/redis_url.ts';

/** The key the doctor reads (and, with `--write-check`, locks): no client ever uses it. */
const PROBE_KEY = { authUrl: 'slicer-auth doctor', username: '', scope: 'probe' };

/** The configured shared store, Redis or file. */
export const storeCheck: Check = {
  id: 'shared-store',
  name: 'shared token store',
  async run(ctx) {
    const config = ctx.config;
    if (!config) return skip('the configuration failed');
    const redisUrl = config.storeUrl?.reveal();
    if (redisUrl) return await redisCheck(redisUrl, config, ctx.options.writeCheck ?? false);
    if (!config.cacheFile) return ok('none configured (SLICER_CACHE_FILE, SLICER_STORE_URL): each process requests its own tokens');
    const distrusted = distrust(config.cacheFile);
    if (distrusted) return fail(`${config.cacheFile}: ${distrusted.why}`, distrusted.fix);
    const refused = unusable(config.cacheFile);
    if (refused) return refused;
    return ok(`file ${config.cacheFile} (private to this user)${config.storeKey ? '; tokens sealed at rest (SLICER_STORE_KEY)' : ''}`);
  },
};

/**
 * Whether this process may read and write the cache file, or make it: the file, else the nearest folder above it that
 * exists (the store makes the rest). Only asked (`access`), never opened.
 *
 * @param file the cache file
 * @returns the failure, or undefined when the file can be used
 */
function unusable(file: string): Outcome | undefined {
  let path = resolve(file);
  try {
    path = nearestThere(path);
    accessSync(path, constants.R_OK | constants.W_OK);
    process.getuid?.(); // how the store tells the file is this user's own; Deno asks for --allow-sys=uid
  } catch (error) {
    if (isDenoRefusal(error)) return fail(`${file}: Deno does not allow this process to use it`, `run with ${denoCacheFlags(file)}`);
    return fail(
      `${file}: this user may not read and write ${path} (${(error as { code?: string }).code})`,
      `give this user read and write access to ${path}, or set SLICER_CACHE_FILE to a path of its own ` +
        '(such as ~/.cache/slicer-auth/tokens.json)',
    );
  }
  return undefined;
}

/** Redis answers a read (and, when asked, takes a lock released at once); says whether tokens are encrypted. */
async function redisCheck(url: string, config: Config, writeCheck: boolean): Promise<Outcome> {
  const { createRedisStore } = await import('../../stores/redis.ts');
  const where = describeRedisUrl(url);
  let store: Awaited<ReturnType<typeof createRedisStore>> | undefined;
  try {
    store = await createRedisStore({ url, key: config.storeKey });
    await store.get(PROBE_KEY);
    if (writeCheck) await (await store.lock(PROBE_KEY, 1_000))?.();
  } catch (error) {
    return fail(
      `${where}: ${(error as Error).message}`,
      'check SLICER_STORE_URL and that Redis runs and accepts this client (tokens are fetched directly meanwhile)',
    );
  } finally {
    await store?.close?.();
  }
  const reach = writeCheck ? 'reachable and writable' : 'reachable (read only; --write-check also takes and releases a lock)';
  return config.storeKey ? ok(`${where} ${reach}; tokens sealed at rest (SLICER_STORE_KEY)`) : warn(
    `${where} ${reach}; tokens are stored in clear`,
    'set SLICER_STORE_KEY so that whoever reads the database cannot read the tokens',
  );
}
