/**
 * What the suite runs against. With `SLICER_AUTH_URL` unset (environment and
 * `.env`), the global setup starts the sandbox in test mode and publishes its
 * settings in `SLICER_CONTRACT_SANDBOX_ENV`; otherwise the suite runs against
 * the configured (live) service and starts nothing.
 */
import process from 'node:process';
import { type EnvValues, readEnv, readSetting } from '../src/env.ts';

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

/** Variables a live target needs. */
const REQUIRED = ['SLICER_AUTH_URL', 'SLICER_BASE_URL', 'SLICER_USERNAME', 'SLICER_PASSWORD', 'SLICER_SERVICE_ID'] as const;

/** @returns whether a live service is configured (and not the sandbox the global setup started) */
export function liveConfigured(): boolean {
  return !process.env.SLICER_CONTRACT_SANDBOX_ENV && readSetting('SLICER_AUTH_URL') !== undefined;
}

/**
 * Loads the target in a worker.
 *
 * @returns the target
 * @throws Error listing the missing variables of a live target
 */
export function loadTarget(): Target {
  const probePath = (readSetting('SLICER_CONTRACT_PROBE_PATH') ?? '').replace(/^\/+/, '');
  const sandbox = process.env.SLICER_CONTRACT_SANDBOX_ENV;
  // The sandbox's settings come from the global setup; a live target's from the environment and .env, read once.
  const values: EnvValues = sandbox ? (JSON.parse(sandbox) as EnvValues) : readEnv();
  const read = (name: (typeof REQUIRED)[number] | 'SLICER_PREDICT_BASE_URL' | 'SLICER_PREDICT_SERVICE_ID') => values[name];
  const missing = REQUIRED.filter((name) => !read(name));
  if (missing.length > 0) {
    throw new Error(`Cannot run the contract suite against SLICER_AUTH_URL: set ${missing.join(', ')} (environment or .env)`);
  }
  const authUrl = (read('SLICER_AUTH_URL') as string).replace(/\/+$/, '');
  return {
    live: !sandbox,
    authUrl,
    baseUrl: (read('SLICER_BASE_URL') as string).replace(/\/+$/, ''),
    predictBaseUrl: read('SLICER_PREDICT_BASE_URL')?.replace(/\/+$/, ''),
    username: read('SLICER_USERNAME') as string,
    password: read('SLICER_PASSWORD') as string,
    serviceId: read('SLICER_SERVICE_ID') as string,
    predictServiceId: read('SLICER_PREDICT_SERVICE_ID'),
    controlsUrl: sandbox ? `${authUrl}/__test` : undefined,
    probePath,
  };
}
