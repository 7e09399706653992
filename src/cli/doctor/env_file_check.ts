/**
 * The doctor's env-file check: an env file that holds a secret (the password, a permanent token, the store's key or
 * URL) is private to its user. Only inspected (`stat`), never opened again.
 */
import { statSync } from 'node:fs';
import process from 'node:process';
import { type Check, ok, warn } from './check.ts';
import { type SettingName, SETTINGS } from '../../settings/settings.ts';

/** The env file, when it holds a secret: private to this user, or a warning with the fix (POSIX only). */
export const envFileCheck: Check = {
  id: 'env-file',
  name: 'env file',
  run(ctx) {
    const config = ctx.config;
    if (!config) return undefined; // the configuration check already failed, naming what to correct
    const secrets = (Object.keys(SETTINGS) as SettingName[]).filter((name) =>
      'secret' in SETTINGS[name] && config.sources[name]?.kind === 'file'
    );
    // Stryker disable next-line ConditionalExpression: the tests run on Linux, where the platform cannot differ
    if (secrets.length === 0 || process.platform === 'win32') return undefined;
    const { path } = config.sources[secrets[0] as SettingName] as { path: string }; // one env file is read at most
    const mode = statSync(path).mode & 0o777;
    const holds = `${path} holds ${secrets.map((name) => SETTINGS[name].env).join(', ')}`;
    if ((mode & 0o077) === 0) return ok(`${holds}; private to this user`);
    return warn(`${holds}, and group or others may read it (mode ${mode.toString(8)})`, `chmod 600 ${path}`);
  },
};
