/**
 * The one table of the client's settings: for each option, its environment
 * variable, its valibot schema (type, default, normalisation) and its doc
 * text. Everything else — the env reader, `Config`, `.env.example`, the
 * README's table, the CLI, the contract suite and the doctor — reads it.
 *
 * Every schema takes the string form of a value (environment, `.env`, or an
 * option converted with `String()`), so one pipeline validates all sources.
 * Messages are fixed text: a value may be a secret.
 */
import * as v from 'valibot';
import { DEFAULTS } from '../defaults.ts';
import {
  authUrl,
  flag,
  httpUrl,
  message,
  origins,
  path,
  permanentToken,
  redisUrl,
  seconds,
  secret,
  ServiceIdSchema,
  text,
  transport,
} from './setting_schemas.ts';

/** One setting: its variable, schema and documentation, and the type of its client option. */
export interface Setting<S extends v.GenericSchema = v.GenericSchema, O = string> {
  /** The environment / `.env` variable. */
  readonly env: `SLICER_${string}`;
  /** Validates and normalises the string form; `v.optional` carries the default. */
  readonly schema: S;
  /** One line for `.env.example`, the README and the doctor. */
  readonly doc: string;
  /** The README's "default" column: the default, or when the setting is needed. */
  readonly defaults: string;
  /** Whether the value is a secret (never shown, only its length). */
  readonly secret?: boolean;
  /** The value `.env.example` shows, if any: a default written out, never a placeholder address (kept in `doc`). */
  readonly example?: string;
  /** Former names of the variable, still read (with a one-line deprecation warning) until the next minor version. */
  readonly formerly?: string;
  /** The former name of the client option, still taken (with a one-line deprecation warning) until the next minor version. */
  readonly formerOption?: string;
  /** Only its type matters: what the client option takes (a string unless said otherwise, see {@link optionOf}). */
  readonly option?: O | undefined;
}

/**
 * Declares the type a setting's client option takes, e.g. `option: optionOf<string | URL>()`.
 *
 * @returns nothing: the type is what counts
 */
const optionOf = <O>(): O | undefined => undefined;

/** Declares one setting, keeping its schema's exact type. */
export const setting = <S extends v.GenericSchema, O = string>(entry: Setting<S, O>): Setting<S, O> => entry;

/** Every setting of the client, keyed by option name. Adding a setting is one entry here plus its use. */
export const SETTINGS = {
  authUrl: setting({
    env: 'SLICER_AUTH_URL',
    option: optionOf<string | URL>(),
    defaults: 'needed unless permanent tokens cover every scope used',
    schema: v.optional(authUrl),
    doc: 'Base address of the authorization service, such as https://auth.example.com (token endpoint: {SLICER_AUTH_URL}/oauth2/token/).',
  }),
  baseUrl: setting({
    env: 'SLICER_BASE_URL',
    option: optionOf<string | URL>(),
    defaults: 'needed for relative paths',
    schema: v.optional(httpUrl),
    doc: 'Base address of the slicing service, such as https://slicer.example.com/api; relative authedFetch paths resolve against it.',
  }),
  predictBaseUrl: setting({
    env: 'SLICER_PREDICT_BASE_URL',
    option: optionOf<string | URL>(),
    defaults: 'optional',
    schema: v.optional(httpUrl),
    doc: 'Base address of the prediction service (optional; for scope "predict").',
  }),
  username: setting({
    env: 'SLICER_USERNAME',
    defaults: 'needed when no permanent token covers the scope in use',
    schema: v.optional(text),
    doc: 'User of the password grant (not needed for a scope covered by a permanent token).',
  }),
  password: setting({
    env: 'SLICER_PASSWORD',
    defaults: 'as above',
    schema: v.optional(secret),
    secret: true,
    doc: 'Password of that user.',
  }),
  serviceId: setting({
    env: 'SLICER_SERVICE_ID',
    defaults: '**required**',
    schema: v.optional(ServiceIdSchema),
    doc: 'Identifier of the slicing service, used in scope service_id=<id>.',
  }),
  predictServiceId: setting({
    env: 'SLICER_PREDICT_SERVICE_ID',
    defaults: 'needed for scope `predict`',
    schema: v.optional(ServiceIdSchema),
    doc: 'Identifier of the prediction service (for scope "predict").',
  }),
  staticToken: setting({
    env: 'SLICER_STATIC_TOKEN',
    formerly: 'SLICER_TOKEN',
    formerOption: 'token',
    defaults: 'optional',
    schema: v.optional(permanentToken),
    secret: true,
    doc: "Permanent token for the slicing service (optional; created in the authorization service's UI).",
  }),
  predictStaticToken: setting({
    env: 'SLICER_PREDICT_STATIC_TOKEN',
    formerly: 'SLICER_PREDICT_TOKEN',
    formerOption: 'predictToken',
    defaults: 'optional',
    schema: v.optional(permanentToken),
    secret: true,
    doc: 'Permanent token for the prediction service (optional).',
  }),
  transport: setting({
    env: 'SLICER_TOKEN_TRANSPORT',
    option: optionOf<'header' | 'post'>(),
    defaults: '`header`',
    schema: v.optional(transport, 'header'),
    doc: 'How the token travels: header (Authorization: Bearer) or post (a `token` form field).',
    example: 'header',
  }),
  refreshMarginSeconds: setting({
    env: 'SLICER_REFRESH_MARGIN_SECONDS',
    option: optionOf<number>(),
    defaults: `\`${DEFAULTS.refreshMarginSeconds}\``,
    schema: v.optional(seconds),
    doc: `Refresh this many seconds before expiry (default ${DEFAULTS.refreshMarginSeconds}, capped at half the token lifetime).`,
  }),
  allowInsecureHttp: setting({
    env: 'SLICER_ALLOW_INSECURE_HTTP',
    option: optionOf<boolean>(),
    defaults: 'off',
    schema: v.optional(flag, 'false'),
    doc: 'Set to 1 to allow the password and tokens over plain http to a non-loopback host (not recommended).',
  }),
  logLevel: setting({
    env: 'SLICER_LOG_LEVEL',
    defaults: '`warn`',
    option: optionOf<'silent' | 'error' | 'warn' | 'info' | 'debug'>(),
    schema: v.optional(
      v.pipe(
        v.string(),
        v.trim(),
        v.toLowerCase(),
        v.picklist(['silent', 'error', 'warn', 'info', 'debug'] as const, message('expected silent, error, warn, info or debug')),
      ),
      'warn',
    ),
    doc: 'What the client logs: silent, error, warn (default), info (token requests and refreshes) or debug (cache hits, lock waits).',
  }),
  allowedOrigins: setting({
    env: 'SLICER_ALLOWED_ORIGINS',
    option: optionOf<string | readonly string[]>(),
    defaults: 'none',
    schema: v.optional(origins),
    doc: "Other origins that may receive a scope's token, comma-separated (default: none; a token goes only to its service's origin).",
  }),
  cacheFile: setting({
    env: 'SLICER_CACHE_FILE',
    formerly: 'SLICER_TOKEN_CACHE',
    formerOption: 'tokenCacheFile',
    defaults: 'off',
    schema: v.optional(path),
    doc: 'Share temporary tokens between processes through this file (optional, mode 0600; a leading ~/ is the home folder).',
  }),
  storeUrl: setting({
    env: 'SLICER_STORE_URL',
    formerly: 'SLICER_TOKEN_STORE',
    formerOption: 'tokenStore',
    defaults: 'off',
    schema: v.optional(redisUrl),
    secret: true,
    doc: 'Share temporary tokens across machines through Redis: redis://[user:pass@]host:port/db or rediss://… (optional; needs ioredis).',
  }),
  storeKey: setting({
    env: 'SLICER_STORE_KEY',
    formerly: 'SLICER_TOKEN_STORE_KEY',
    formerOption: 'tokenStoreKey',
    defaults: 'off (plain)',
    schema: v.optional(secret),
    secret: true,
    doc:
      'Seal tokens at rest in Redis and in the cache file (AES-256-GCM bound to each entry; key from this secret through scrypt; `slicer-auth store-key` makes one); without it, whoever reads the database or the file reads the tokens.',
  }),
} as const;

/** An option name of {@link SETTINGS}. */
export type SettingName = keyof typeof SETTINGS;

/** The variable of each setting. */
export type EnvKey = (typeof SETTINGS)[SettingName]['env'];

/** Every variable the client reads, in table order. */
export const ENV_KEYS: readonly EnvKey[] = Object.values(SETTINGS).map((s) => s.env);

/** The former name of a renamed variable, by its current name (read until the next minor version). */
export const FORMER_NAMES: Readonly<Partial<Record<string, string>>> = Object.fromEntries(
  Object.values(SETTINGS).flatMap((s: Setting<v.GenericSchema, unknown>) => (s.formerly ? [[s.env, s.formerly]] : [])),
);

/** The current option name of a renamed client option, by its former name (taken until the next minor version). */
export const FORMER_OPTIONS: Readonly<Partial<Record<string, SettingName>>> = Object.fromEntries(
  (Object.entries(SETTINGS) as [SettingName, Setting<v.GenericSchema, unknown>][]).flatMap(([name, s]) =>
    s.formerOption ? [[s.formerOption, name]] : []
  ),
);

type Schemas = { readonly [K in SettingName]: (typeof SETTINGS)[K]['schema'] };

/** The schema of all settings, keyed by option name. */
export const SettingsSchema = v.object(
  Object.fromEntries(Object.entries(SETTINGS).map(([name, s]) => [name, s.schema])) as unknown as Schemas,
);

/** The client option type the table declares for a setting (see `type-tests/`). */
export type OptionType<K extends SettingName> = (typeof SETTINGS)[K] extends Setting<v.GenericSchema, infer O> ? O : never;

/** Validated settings, keyed by option name (inferred from the table). */
export type Settings = v.InferOutput<typeof SettingsSchema>;
