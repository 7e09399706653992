/**
 * What the suite runs against, chosen explicitly and never by fallback:
 * `SLICER_CONTRACT_TARGET` (or `slicer-auth contract --target`) is `sandbox`
 * (the default: the global setup starts the embedded sandbox and publishes
 * its settings in `SLICER_CONTRACT_SANDBOX_ENV`; live URLs in the
 * environment or `.env` are ignored, and said so) or `live` (the configured
 * service: every URL, both service ids and the credentials must be set and
 * non-empty, or the run refuses to start). Settings go through the client's
 * configuration model (`src/settings/config.ts`): same validation, same messages.
 */
import process from 'node:process';
import { ConfigError } from '../src/errors.ts';
import { type Config, parseConfig } from '../src/settings/config.ts';
import { readEnv, type ReadEnvOptions } from '../src/settings/env.ts';
import { type SettingName, SETTINGS } from '../src/settings/settings.ts';
import { readToolSettings } from '../src/settings/tool_settings.ts';

/** Settings of the service under test. */
export interface Target {
  /** True for a configured service, false for the embedded sandbox. */
  readonly live: boolean;
  readonly authUrl: string;
  readonly baseUrl: string;
  readonly predictBaseUrl: string | undefined;
  readonly username: string;
  readonly password: string;
  readonly serviceId: string;
  readonly predictServiceId: string | undefined;
  /** Base URL of the sandbox's test controls; absent on live targets. */
  readonly controlsUrl: string | undefined;
  /** Path under a base URL that the service answers; `''` is the base URL itself. */
  readonly probePath: string;
}

/** What a live target must set: the authorization service, both services, both ids and the credentials. */
const LIVE: readonly SettingName[] = ['authUrl', 'baseUrl', 'predictBaseUrl', 'username', 'password', 'serviceId', 'predictServiceId'];
/** The settings that point at a service, ignored (and said so) with the sandbox target. */
const URLS: readonly SettingName[] = ['authUrl', 'baseUrl', 'predictBaseUrl'];

/** @returns `live` or `sandbox`, as chosen (default sandbox) */
export function targetKind(): 'sandbox' | 'live' {
  return readToolSettings().contractTarget;
}

/**
 * A live target's configuration, complete.
 *
 * @param sources where the settings come from (the environment and `.env` by default)
 * @returns the configuration
 * @throws {ConfigError} `CONFIG_INVALID` listing every missing, blank or malformed setting at once
 */
export function liveConfig(sources: ReadEnvOptions = {}): Config {
  const task = 'run the contract suite against a live service (SLICER_CONTRACT_TARGET=live)';
  let config: Config;
  try {
    config = parseConfig(readEnv(sources), {}, { scope: null });
  } catch (error) {
    if (error instanceof ConfigError) throw new ConfigError(error.issues, task);
    throw error;
  }
  const missing = LIVE.filter((name) => config[name] === undefined).map((name) => ({
    key: SETTINGS[name].env,
    option: name,
    message: 'missing: a live target needs it (a blank value, such as an unset CI secret, counts as missing)',
  }));
  if (missing.length > 0) throw new ConfigError(missing, task);
  return config;
}

/**
 * The live target's authorization service, for what must know it before the
 * global setup runs (the browser's launch options).
 *
 * @returns its base address; undefined for the sandbox target, or for settings that do not read (the global setup
 *   reports them)
 */
export function liveAuthUrl(): string | undefined {
  if (targetKind() !== 'live') return undefined;
  try {
    return liveConfig().authUrl;
  } catch {
    return undefined;
  }
}

/**
 * The line a run prints before its first test: the target, origins only.
 *
 * @param target the target
 * @returns e.g. `live: auth https://auth.example, slicer https://slicer.example, predict https://predict.example`
 */
export function describeTarget(target: Pick<Target, 'live' | 'authUrl' | 'baseUrl' | 'predictBaseUrl'>): string {
  const origin = (url: string | undefined) => (url ? new URL(url).origin : 'not set');
  return `${target.live ? 'live' : 'sandbox (embedded)'}: auth ${origin(target.authUrl)}, slicer ${origin(target.baseUrl)}, predict ${
    origin(target.predictBaseUrl)
  }`;
}

/** @returns the service variables set in the environment or .env that the sandbox target ignores, as one line (or undefined) */
export function ignoredByTheSandbox(): string | undefined {
  const values = readEnv();
  const set = URLS.map((name) => SETTINGS[name].env).filter((key) => values[key] !== undefined);
  return set.length > 0
    ? `ignoring ${set.join(', ')} (set SLICER_CONTRACT_TARGET=live, or --target live, to check that service)`
    : undefined;
}

/**
 * Loads the target in a worker.
 *
 * @returns the target
 * @throws {ConfigError} listing every missing or malformed variable of a live target
 * @throws Error when the sandbox target's global setup did not run
 */
export function loadTarget(): Target {
  const tools = readToolSettings();
  const live = tools.contractTarget === 'live';
  const sandbox = process.env.SLICER_CONTRACT_SANDBOX_ENV;
  if (!live && !sandbox) throw new Error('The sandbox target has no sandbox: run the suite with its config (global setup)');
  // The sandbox's settings come from the global setup; a live target's from the environment and .env.
  const config = live ? liveConfig() : parseConfig(JSON.parse(sandbox as string), {}, { scope: null });
  // liveConfig checked each of these; the sandbox publishes them all.
  const { authUrl, baseUrl, username, password, serviceId } = config as { [K in keyof Config]-?: NonNullable<Config[K]> };
  return {
    live,
    authUrl,
    baseUrl,
    predictBaseUrl: config.predictBaseUrl,
    username,
    password: password.reveal(),
    serviceId,
    predictServiceId: config.predictServiceId,
    controlsUrl: live ? undefined : `${authUrl}/__test`,
    probePath: tools.contractProbePath,
  };
}
