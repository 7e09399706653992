/**
 * What the suite runs against. With `SLICER_AUTH_URL` unset (environment and
 * `.env`), the global setup starts the sandbox in test mode and publishes its
 * settings in `SLICER_CONTRACT_SANDBOX_ENV`; otherwise the suite runs against
 * the configured (live) service and starts nothing. Settings go through the
 * client's configuration model (`src/config.ts`): same validation, same
 * trimming, same messages.
 */
import process from 'node:process';
import { type Config, type EnvInput, parseConfig, requireSettings } from '../src/config.ts';
import { readEnv } from '../src/env.ts';
import { readToolSettings } from '../src/tool_settings.ts';

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

/** What the suite needs: the password grant and the slicing service's base URL. */
const NEEDS = { scope: 'slicer', relative: true, credentials: true } as const;

/** @returns whether a live service is configured (and not the sandbox the global setup started) */
export function liveConfigured(): boolean {
  return !process.env.SLICER_CONTRACT_SANDBOX_ENV && readEnv().SLICER_AUTH_URL !== undefined;
}

/**
 * Loads the target in a worker.
 *
 * @returns the target
 * @throws {ConfigError} listing every missing or malformed variable of a live target
 */
export function loadTarget(): Target {
  const probePath = readToolSettings().contractProbePath;
  const sandbox = process.env.SLICER_CONTRACT_SANDBOX_ENV;
  // The sandbox's settings come from the global setup; a live target's from the environment and .env, read once.
  const values: EnvInput = sandbox ? (JSON.parse(sandbox) as EnvInput) : readEnv();
  const config: Config = parseConfig(values, {}, NEEDS);
  requireSettings(config, NEEDS, 'run the contract suite against SLICER_AUTH_URL');
  // requireSettings checked each of these.
  const { authUrl, baseUrl, username, password, serviceId } = config as { [K in keyof Config]-?: NonNullable<Config[K]> };
  return {
    live: !sandbox,
    authUrl,
    baseUrl,
    predictBaseUrl: config.predictBaseUrl,
    username,
    password: password.reveal(),
    serviceId,
    predictServiceId: config.predictServiceId,
    controlsUrl: sandbox ? `${authUrl}/__test` : undefined,
    probePath,
  };
}
