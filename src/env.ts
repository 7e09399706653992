/**
 * Reads the module's variables from the process environment and `.env`.
 *
 * Only the fixed list {@link ENV_KEYS} is read, one key at a time: Deno with
 * `--allow-env=KEYS` refuses to enumerate `process.env`. `.env` goes through
 * `dotenv.parse` into a plain object; nothing is written to `process.env`, and
 * a variable already set in the environment wins over `.env`.
 */
import { readFileSync } from 'node:fs';
import process from 'node:process';
import { parse } from 'dotenv';
import { ConfigError } from './errors.ts';

/** Every variable the module reads. */
export const ENV_KEYS = [
  'SLICER_AUTH_URL',
  'SLICER_BASE_URL',
  'SLICER_PREDICT_BASE_URL',
  'SLICER_USERNAME',
  'SLICER_PASSWORD',
  'SLICER_SERVICE_ID',
  'SLICER_PREDICT_SERVICE_ID',
  'SLICER_TOKEN',
  'SLICER_PREDICT_TOKEN',
  'SLICER_TOKEN_TRANSPORT',
  'SLICER_REFRESH_MARGIN_SECONDS',
  'SLICER_ALLOW_INSECURE_HTTP',
  'SLICER_TOKEN_CACHE',
] as const;

/** One of {@link ENV_KEYS}. */
export type EnvKey = (typeof ENV_KEYS)[number];

/** Values found for the module's variables; absent keys are unset. */
export type EnvValues = Partial<Record<EnvKey, string>>;

/** Where {@link readEnv} looks. */
export interface ReadEnvOptions {
  /**
   * Variables to use instead of the process environment.
   * @default process.env
   */
  env?: Readonly<Record<string, string | undefined>> | undefined;
  /**
   * Path of the `.env` file, or `false` to read none.
   * @default ".env" in the current directory
   */
  envFile?: string | false | undefined;
}

/**
 * Reads a `.env` file into a plain object.
 *
 * @param path the file; a missing file gives `{}`
 * @returns the parsed variables
 * @throws {ConfigError} `CONFIG_INVALID` when the file exists but cannot be read
 */
export function readEnvFile(path: string): Record<string, string> {
  try {
    return parse(readFileSync(path));
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return {};
    throw new ConfigError([{ key: path, message: `cannot read this .env file (${(error as Error).name})` }], 'load the .env file');
  }
}

/**
 * Collects the module's variables: the real environment first, then `.env`.
 *
 * @param options where to read from
 * @returns the non-empty values found, by key
 * @throws {ConfigError} `CONFIG_INVALID` when `.env` exists but cannot be read
 * @example
 * ```ts
 * const values = readEnv({ envFile: false });
 * ```
 */
export function readEnv(options: ReadEnvOptions = {}): EnvValues {
  const real = options.env ?? process.env;
  const file = options.envFile === false ? {} : readEnvFile(options.envFile ?? '.env');
  const values: EnvValues = {};
  for (const key of ENV_KEYS) {
    const value = real[key] ?? file[key];
    if (value !== undefined && value.trim() !== '') values[key] = value;
  }
  return values;
}

/**
 * Reads one variable that is not the client's (e.g. `SLICER_UI_STORAGE_STATE`):
 * the environment first, then `.env`.
 *
 * @param name the variable
 * @param envFile the `.env` file
 * @returns its trimmed value, or undefined when unset or blank
 */
export function readSetting(name: string, envFile = '.env'): string | undefined {
  const value = process.env[name] ?? readEnvFile(envFile)[name];
  return value?.trim() ? value.trim() : undefined;
}
