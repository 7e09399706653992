/**
 * Turns raw settings (environment, `.env`, client options) into a validated
 * {@link Config}, and a caller's scope into a {@link ScopeTarget}.
 *
 * Validation is one valibot schema keyed by variable name, so one
 * {@link ConfigError} lists every missing or malformed variable at once.
 * Messages never include the value received (it may be a secret).
 */
import * as v from 'valibot';
import { ConfigError, type ConfigIssue, InsecureAuthUrlError } from './errors.ts';
import type { EnvKey, EnvValues } from './env.ts';
import { Secret } from './redact.ts';

/** How a token travels to the services (contract 5.1). */
export type TokenTransport = 'header' | 'post';

/** A scope: a short name, or a full `service_id=<id>` string. */
export type ScopeInput = 'slicer' | 'predict' | `service_id=${string}`;

/** What the password grant needs (contract 4.1). */
export interface Credentials {
  /** Base address of the authorization service, without trailing slash. */
  readonly authUrl: string;
  /** User name. */
  readonly username: string;
  /** Password. */
  readonly password: Secret;
}

/** Validated settings of one client. */
export interface Config {
  /** Base address of the authorization service, without trailing slash. */
  readonly authUrl: string | undefined;
  /** Base address of the slicing service. */
  readonly baseUrl: string | undefined;
  /** Base address of the prediction service. */
  readonly predictBaseUrl: string | undefined;
  /** User for the password grant. */
  readonly username: string | undefined;
  /** Password for the password grant. */
  readonly password: Secret | undefined;
  /** The slicing service's identifier (scope `service_id=<id>`). */
  readonly serviceId: string;
  /** The prediction service's identifier. */
  readonly predictServiceId: string | undefined;
  /** Permanent token for the slicing service. */
  readonly token: Secret | undefined;
  /** Permanent token for the prediction service. */
  readonly predictToken: Secret | undefined;
  /** How tokens are sent. */
  readonly transport: TokenTransport;
  /** Configured refresh margin in seconds, if any. */
  readonly refreshMarginSeconds: number | undefined;
  /** Whether the password may go over plain http to a non-loopback host. */
  readonly allowInsecureHttp: boolean;
  /** File of the cross-process token cache, if enabled. */
  readonly tokenCacheFile: string | undefined;
  /** Auth URL, user and password, when all three are set. */
  readonly credentials: Credentials | undefined;
}

const message = (text: string) => () => text;

const httpUrl = v.pipe(
  v.string(),
  v.trim(),
  v.url(message('expected an http(s) URL such as https://auth.example.com')),
  v.check((value) => /^https?:\/\//i.test(value), message('expected an http(s) URL such as https://auth.example.com')),
  v.transform((value) => value.replace(/\/+$/, '')),
);

const identifier = v.pipe(
  v.string(),
  v.trim(),
  v.regex(/^[^\s=&]+$/, message('expected a service identifier without spaces, "=" or "&"')),
);

const secret = v.pipe(v.string(), v.transform((value) => new Secret(value)));

const flag = v.pipe(
  v.string(),
  v.trim(),
  v.toLowerCase(),
  v.picklist(['1', 'true', 'yes', '0', 'false', 'no'], message('expected 1/true/yes or 0/false/no')),
  v.transform((value) => ['1', 'true', 'yes'].includes(value)),
);

const ConfigSchema = v.object({
  SLICER_AUTH_URL: v.optional(httpUrl),
  SLICER_BASE_URL: v.optional(httpUrl),
  SLICER_PREDICT_BASE_URL: v.optional(httpUrl),
  SLICER_USERNAME: v.optional(v.pipe(v.string(), v.trim())),
  SLICER_PASSWORD: v.optional(secret),
  SLICER_SERVICE_ID: identifier,
  SLICER_PREDICT_SERVICE_ID: v.optional(identifier),
  SLICER_TOKEN: v.optional(secret),
  SLICER_PREDICT_TOKEN: v.optional(secret),
  SLICER_TOKEN_TRANSPORT: v.optional(
    v.pipe(v.string(), v.trim(), v.toLowerCase(), v.picklist(['header', 'post'], message('expected "header" or "post"'))),
    'header',
  ),
  SLICER_REFRESH_MARGIN_SECONDS: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.transform(Number),
      v.number(message('expected a number of seconds')),
      v.minValue(0, message('expected a number of seconds, 0 or more')),
    ),
  ),
  SLICER_ALLOW_INSECURE_HTTP: v.optional(flag, 'false'),
  SLICER_TOKEN_CACHE: v.optional(v.pipe(v.string(), v.trim())),
}, message('missing: set it to the slicing service identifier'));

/** Names the client options that stand for each variable. */
export const OPTION_FOR_KEY = {
  SLICER_AUTH_URL: 'authUrl',
  SLICER_BASE_URL: 'baseUrl',
  SLICER_PREDICT_BASE_URL: 'predictBaseUrl',
  SLICER_USERNAME: 'username',
  SLICER_PASSWORD: 'password',
  SLICER_SERVICE_ID: 'serviceId',
  SLICER_PREDICT_SERVICE_ID: 'predictServiceId',
  SLICER_TOKEN: 'token',
  SLICER_PREDICT_TOKEN: 'predictToken',
  SLICER_TOKEN_TRANSPORT: 'transport',
  SLICER_REFRESH_MARGIN_SECONDS: 'refreshMarginSeconds',
  SLICER_ALLOW_INSECURE_HTTP: 'allowInsecureHttp',
  SLICER_TOKEN_CACHE: 'tokenCacheFile',
} as const satisfies Record<EnvKey, string>;

/** Settings given as client options; each overrides its variable. */
export type SettingsOptions = {
  -readonly [K in EnvKey as (typeof OPTION_FOR_KEY)[K]]?: string | number | boolean | undefined;
};

/**
 * Validates settings: options override variables.
 *
 * @param env values read by `readEnv`
 * @param options explicit client options
 * @returns the validated configuration
 * @throws {ConfigError} `CONFIG_INVALID` listing every missing or malformed setting
 * @throws {InsecureAuthUrlError} `INSECURE_AUTH_URL` for a password over plain http to a non-loopback host
 */
export function parseConfig(env: EnvValues, options: SettingsOptions = {}): Config {
  const raw: Record<string, string> = {};
  for (const [key, option] of Object.entries(OPTION_FOR_KEY) as [EnvKey, keyof SettingsOptions][]) {
    const value = options[option] ?? env[key];
    if (value !== undefined && String(value).trim() !== '') raw[key] = String(value);
  }
  const result = v.safeParse(ConfigSchema, raw);
  if (!result.success) {
    // One line per variable: a value can fail several checks of the same pipe.
    const byKey = new Map<string, ConfigIssue>();
    for (const issue of result.issues) {
      const key = String(issue.path?.[0]?.key ?? 'settings');
      if (!byKey.has(key)) byKey.set(key, { key, message: issue.message });
    }
    throw new ConfigError([...byKey.values()]);
  }
  const out = result.output;
  const config: Config = {
    authUrl: out.SLICER_AUTH_URL,
    baseUrl: out.SLICER_BASE_URL,
    predictBaseUrl: out.SLICER_PREDICT_BASE_URL,
    username: out.SLICER_USERNAME,
    password: out.SLICER_PASSWORD,
    serviceId: out.SLICER_SERVICE_ID,
    predictServiceId: out.SLICER_PREDICT_SERVICE_ID,
    token: out.SLICER_TOKEN,
    predictToken: out.SLICER_PREDICT_TOKEN,
    transport: out.SLICER_TOKEN_TRANSPORT as TokenTransport,
    refreshMarginSeconds: out.SLICER_REFRESH_MARGIN_SECONDS,
    allowInsecureHttp: out.SLICER_ALLOW_INSECURE_HTTP as boolean,
    tokenCacheFile: out.SLICER_TOKEN_CACHE,
    credentials: out.SLICER_AUTH_URL && out.SLICER_USERNAME && out.SLICER_PASSWORD
      ? { authUrl: out.SLICER_AUTH_URL, username: out.SLICER_USERNAME, password: out.SLICER_PASSWORD }
      : undefined,
  };
  if (config.authUrl && config.password && !config.allowInsecureHttp) assertSafeAuthUrl(config.authUrl);
  return config;
}

/**
 * Tells whether a host name is on this machine (127.0.0.0/8, ::1, localhost).
 *
 * @param hostname a URL's `hostname`
 * @returns true for a loopback host
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

function assertSafeAuthUrl(authUrl: string): void {
  const url = new URL(authUrl);
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) throw new InsecureAuthUrlError(url.host);
}

/** What a scope resolves to for one client. */
export interface ScopeTarget {
  /** The scope string sent to the token endpoint, `service_id=<id>`. */
  readonly scope: string;
  /** Base URL for relative request paths, if configured. */
  readonly baseUrl: string | undefined;
  /** The permanent token covering this scope, if configured. */
  readonly permanentToken: Secret | undefined;
  /** Credentials for the password grant, when no permanent token covers the scope. */
  readonly credentials: Credentials | undefined;
  /** The variable holding that permanent token, for messages. */
  readonly permanentTokenKey: EnvKey;
  /** The variable naming this scope's base URL, for messages. */
  readonly baseUrlKey: EnvKey;
}

/**
 * Resolves a scope for a client, checking that what it needs is configured.
 *
 * @param config the client's configuration
 * @param input `'slicer'` (default), `'predict'`, or `service_id=<id>`
 * @returns the scope string, base URL and permanent token that apply
 * @throws {ConfigError} `CONFIG_INVALID` when the scope is malformed, or its
 *   service id, or the auth URL and credentials it needs, are missing
 */
export function resolveScope(config: Config, input: ScopeInput | string = 'slicer'): ScopeTarget {
  const issues: ConfigIssue[] = [];
  let serviceId: string | undefined;
  if (input === 'slicer') serviceId = config.serviceId;
  else if (input === 'predict') {
    serviceId = config.predictServiceId;
    if (!serviceId) issues.push({ key: 'SLICER_PREDICT_SERVICE_ID', message: 'missing: set it to use scope "predict"' });
  } else if (/^service_id=[^\s=&]+$/.test(input)) serviceId = input.slice('service_id='.length);
  else issues.push({ key: 'scope', message: `expected "slicer", "predict" or "service_id=<id>", got "${input}"` });

  const predict = serviceId !== undefined && serviceId === config.predictServiceId && serviceId !== config.serviceId;
  const permanentToken = predict ? config.predictToken : serviceId === config.serviceId ? config.token : undefined;
  if (serviceId !== undefined && !permanentToken) {
    if (!config.authUrl) issues.push({ key: 'SLICER_AUTH_URL', message: 'missing: set it to the authorization service URL' });
    if (!config.username) {
      issues.push({ key: 'SLICER_USERNAME', message: 'missing: needed for the password grant (or set a permanent token)' });
    }
    if (!config.password) {
      issues.push({ key: 'SLICER_PASSWORD', message: 'missing: needed for the password grant (or set a permanent token)' });
    }
  }
  if (issues.length > 0 || serviceId === undefined) throw new ConfigError(issues, `use scope "${input}"`);
  return {
    scope: `service_id=${serviceId}`,
    baseUrl: predict ? config.predictBaseUrl : config.baseUrl,
    permanentToken,
    credentials: permanentToken ? undefined : config.credentials,
    permanentTokenKey: predict ? 'SLICER_PREDICT_TOKEN' : 'SLICER_TOKEN',
    baseUrlKey: predict ? 'SLICER_PREDICT_BASE_URL' : 'SLICER_BASE_URL',
  };
}
