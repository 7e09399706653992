/**
 * The doctor's shared-store check. Read only unless `--write-check` is given:
 * a Redis store is read (one GET of a doctor key), a cache file is only
 * inspected (owner, mode, symlink); nothing is locked, written or deleted.
 */
import type { Config } from '../../config.ts';
import { distrust } from '../../stores/file.ts';
import { describeRedisUrl } from '../../stores/redis_url.ts';
import { type Check, fail, ok, type Outcome, skip, warn } from './check.ts';

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
    const why = distrust(config.cacheFile);
    if (why) {
      return fail(`${config.cacheFile}: ${why}`, `chmod 600 ${config.cacheFile} as its owner, or remove it (it is recreated)`);
    }
    return ok(`file ${config.cacheFile} (private to this user)${config.storeKey ? '; tokens sealed at rest (SLICER_STORE_KEY)' : ''}`);
  },
};

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
