/** The doctor's configuration check: every setting with where it came from; secrets only by length. */
import { type Check, fail, ok } from './check.ts';
import { ErrorCode, isAuthError } from '../../errors.ts';
import { nothingConfigured } from '../first_run.ts';
import { envExampleFile } from '../../package_info.ts';
import { type Config, FIRST_RUN_FIX, parseConfig, requireSettings } from '../../settings/config.ts';
import { deniedFlag, describeSource, readEnv } from '../../settings/env.ts';
import { type SettingName, SETTINGS } from '../../settings/settings.ts';

/** Reads and validates the configuration; the checks after it use `ctx.config`. */
export const configurationCheck: Check = {
  id: 'configuration',
  name: 'configuration',
  run(ctx) {
    const values = readEnv(ctx.options);
    if (nothingConfigured(ctx.options.env, values)) {
      return fail('nothing is configured (no SLICER_* variable in the environment or .env)', FIRST_RUN_FIX);
    }
    try {
      const config = parseConfig(values, {}, { scope: 'slicer', relative: true });
      requireSettings(config, { scope: 'slicer', relative: true }, 'use the slicing service');
      ctx.config = config;
      return ok(describeConfig(config));
    } catch (error) {
      if (!isAuthError(error)) throw error;
      const denied = deniedFlag(values);
      return fail(
        error.message,
        error.code === ErrorCode.INSECURE_AUTH_URL
          ? 'use an https SLICER_AUTH_URL, or set SLICER_ALLOW_INSECURE_HTTP=1 if you accept the risk'
          : denied
          ? `let the runtime read the environment: run Deno with --allow-env, or ${denied}`
          : `set or correct the variables listed, in the environment or .env (${envExampleFile()} describes each)`,
      );
    }
  },
};

/** Each set setting on a line: its value (secrets: only their length) and its source. */
function describeConfig(config: Config): string {
  return (Object.keys(SETTINGS) as SettingName[])
    .filter((name) => config.sources[name])
    .map((name) => {
      const setting = SETTINGS[name];
      const value = config[name];
      const length = 'secret' in setting ? (value as { reveal(): string }).reveal().length : undefined;
      const shown = length === undefined ? String(value) : `set, ${length} character${length === 1 ? '' : 's'}`;
      return `${setting.env}=${shown} (${describeSource(config.sources[name] as never)})`;
    })
    .join('\n');
}
