/**
 * Turns raw settings (environment, env file, client options) into a validated
 * {@link Config} with the source of every value, and checks that a task has
 * the settings it needs.
 *
 * Validation is the settings table's schema (`settings.ts`), so one
 * {@link ConfigError} lists every missing or malformed variable at once, each
 * with where its value came from. Messages never include a value (it may be
 * a secret).
 */
import * as v from 'valibot';
import { deprecated, describeSource, type Found, type Source, warnOnce } from './env.ts';
import { ConfigError, type ConfigIssue } from '../errors.ts';
import { redact, Secret } from '../redact.ts';
import { DEFAULT_SERVICE, SCOPE_FORMS, type ScopeInput, scopeKind, SERVICES } from './services.ts';
import { type EnvKey, FORMER_OPTIONS, type SettingName, SETTINGS, type Settings, SettingsSchema } from './settings.ts';
import { assertSafeUrl } from './url_policy.ts';

/** The fix for a set-up where no setting is set anywhere (environment, env file or client options). */
export const FIRST_RUN_FIX = 'set SLICER_AUTH_URL, SLICER_USERNAME, SLICER_PASSWORD, SLICER_SERVICE_ID and SLICER_BASE_URL in the ' +
  'environment or .env ("npx slicer-auth init" writes a .env that lists every setting, with its meaning); to try it on the ' +
  'embedded sandbox first, run "npx slicer-auth demo", or "npx slicer-auth init --sandbox" and "npx slicer-auth sandbox"';

/** What a configuration error adds when no setting is set: the first run's fix. */
const firstRun = (sources: object) => (Object.keys(sources).length === 0 ? `Nothing is configured: ${FIRST_RUN_FIX}.` : undefined);

/** How a token travels to the services (contract 5.1); `type-tests/` checks it against the schema (written out for JSR's explicit types). */
export type TokenTransport = 'header' | 'post';

/**
 * Settings given as client options; each overrides its variable.
 * Written out (not mapped from the table) so that editors show each option's
 * doc and JSR sees explicit types; `type-tests/` checks that it has exactly the
 * table's settings, each with the option type the table declares.
 */
export interface SettingOptions {
  /** Base address of the authorization service. @default SLICER_AUTH_URL */
  authUrl?: string | URL | undefined;
  /** Base address of the slicing service. @default SLICER_BASE_URL */
  baseUrl?: string | URL | undefined;
  /** Base address of the prediction service. @default SLICER_PREDICT_BASE_URL */
  predictBaseUrl?: string | URL | undefined;
  /** User of the password grant. @default SLICER_USERNAME */
  username?: string | undefined;
  /** Password of the password grant. @default SLICER_PASSWORD */
  password?: string | undefined;
  /** Identifier of the slicing service. @default SLICER_SERVICE_ID */
  serviceId?: string | undefined;
  /** Identifier of the prediction service. @default SLICER_PREDICT_SERVICE_ID */
  predictServiceId?: string | undefined;
  /** Permanent token for the slicing service. @default SLICER_STATIC_TOKEN */
  staticToken?: string | undefined;
  /** Permanent token for the prediction service. @default SLICER_PREDICT_STATIC_TOKEN */
  predictStaticToken?: string | undefined;
  /** How the token travels. @default "header" */
  transport?: TokenTransport | undefined;
  /** Refresh this many seconds before expiry (capped at half the lifetime). @default DEFAULTS.refreshMarginSeconds (300) */
  refreshMarginSeconds?: number | undefined;
  /** Allow the password and tokens over plain http to a non-loopback host. @default false */
  allowInsecureHttp?: boolean | undefined;
  /** What the client logs (to `logger`). @default SLICER_LOG_LEVEL, else "warn" */
  logLevel?: 'silent' | 'error' | 'warn' | 'info' | 'debug' | undefined;
  /**
   * Other origins that may receive a scope's token (e.g. `https://storage.example.com`);
   * every other request goes out without it. @default SLICER_ALLOWED_ORIGINS, else none
   */
  allowedOrigins?: string | readonly string[] | undefined;
  /** File of the cross-process token cache. @default SLICER_CACHE_FILE, else none */
  cacheFile?: string | undefined;
  /** Redis URL of the fleet's shared token store. @default SLICER_STORE_URL, else none */
  storeUrl?: string | undefined;
  /** Secret that seals tokens at rest, in Redis or the cache file. @default SLICER_STORE_KEY, else none (plain) */
  storeKey?: string | undefined;
}

/**
 * Former names of options, still taken until the next minor version, each
 * with a one-line deprecation warning naming the new one.
 */
export interface DeprecatedSettingOptions {
  /** @deprecated renamed `staticToken` (it is the permanent token, `SLICER_STATIC_TOKEN`) */
  token?: string | undefined;
  /** @deprecated renamed `predictStaticToken` */
  predictToken?: string | undefined;
  /** @deprecated renamed `cacheFile` */
  tokenCacheFile?: string | undefined;
  /** @deprecated renamed `storeUrl` (`store` is a store object) */
  tokenStore?: string | undefined;
  /** @deprecated renamed `storeKey` */
  tokenStoreKey?: string | undefined;
}

/** What the password grant needs (contract 4.1). */
export interface Credentials {
  /** Base address of the authorization service, without trailing slash. */
  readonly authUrl: string;
  /** User name. */
  readonly username: string;
  /** Password. */
  readonly password: Secret;
}

/** Validated settings of one client, with the source of each. */
export type Config = Readonly<Settings> & {
  /** Auth URL, user and password, when all three are set. */
  readonly credentials: Credentials | undefined;
  /** Where each set value came from. */
  readonly sources: Readonly<Partial<Record<SettingName, Source>>>;
};

/** Raw variables: as `readEnv` finds them, or bare strings (counted as from the environment). */
export type EnvInput = Partial<Record<EnvKey, string | Found>>;

/** What a call needs besides well-formed settings. */
export interface Needs {
  /**
   * The scope it uses: its service id, and credentials unless a permanent token covers it;
   * `null` for a task that uses no scope (the UI).
   * @default "slicer"
   */
  readonly scope?: ScopeInput | string | null | undefined;
  /** A relative URL: the scope's base URL. */
  readonly relative?: boolean | undefined;
  /** The password grant itself, even where a permanent token covers the scope (the contract suite). */
  readonly credentials?: boolean | undefined;
  /** The authorization service, without the password grant (its UI). */
  readonly authUrl?: boolean | undefined;
}

const NAMES = Object.keys(SETTINGS) as SettingName[];

type Present = Partial<Record<SettingName, unknown>>;

/**
 * The settings a call needs that are not set, in table order. Works on raw
 * strings and on a parsed config alike: only presence and service ids matter.
 */
function missingFor(present: Present, needs: Needs): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const miss = (name: SettingName, why: string) => issues.push({ key: SETTINGS[name].env, option: name, message: `missing: ${why}` });
  const scope = needs.scope === undefined ? DEFAULT_SERVICE.name : needs.scope;
  const target = scope === null ? 'none' : scopeKind(present, scope);
  const service = typeof target === 'object' ? target : undefined;
  if (service && !present[service.id.option]) miss(service.id.option, `set it to the ${service.title} identifier`);
  const permanent = service && present[service.staticToken.option];
  const grant = needs.credentials || (target !== 'invalid' && target !== 'none' && !permanent);
  if ((grant || needs.authUrl) && !present.authUrl) miss('authUrl', 'set it to the authorization service URL');
  if (grant) {
    const why = 'needed for the password grant (or set a permanent token)';
    if (!present.username) miss('username', why);
    if (!present.password) miss('password', why);
  }
  if (needs.relative) {
    const base = (service ?? DEFAULT_SERVICE).baseUrl.option;
    if (!present[base]) miss(base, 'set it, or pass an absolute URL');
  }
  if (target === 'invalid') {
    const secrets = [present.password, ...SERVICES.map((s) => present[s.staticToken.option])] as (string | Secret | undefined)[];
    issues.push({ key: 'scope', message: `expected ${SCOPE_FORMS}, got "${redact(String(scope), secrets)}"` });
  }
  return issues;
}

/** The options under their current names: a former name is taken (said once) when the current one is not given. */
function withCurrentNames(options: SettingOptions & DeprecatedSettingOptions): SettingOptions {
  let renamed: Record<string, unknown> | undefined;
  for (const [former, current] of Object.entries(FORMER_OPTIONS) as [keyof DeprecatedSettingOptions, SettingName][]) {
    if (options[former] === undefined) continue;
    deprecated(former, current);
    renamed ??= { ...options };
    renamed[current] ??= options[former];
  }
  return (renamed ?? options) as SettingOptions;
}

/** A setting reported missing whose variable the runtime refused to let be read says so, and names the flag. */
function explainDenied(issues: ConfigIssue[], env: EnvInput): ConfigIssue[] {
  const found = Object.fromEntries(Object.entries(env).filter((entry): entry is [string, Found] => typeof entry[1] === 'object'));
  const because = (key: string) =>
    `cannot be read: no permission to read the environment (Deno: run with --allow-env, or --allow-env=${key} and the other variables)`;
  return issues.map((issue) => (found[issue.key]?.source.kind === 'denied' ? { ...issue, message: because(issue.key) } : issue));
}

function inTableOrder(issues: ConfigIssue[]): ConfigIssue[] {
  const order = (issue: ConfigIssue) => (issue.option ? NAMES.indexOf(issue.option as SettingName) : NAMES.length);
  return issues.sort((a, b) => order(a) - order(b));
}

/**
 * Validates settings: options override variables.
 *
 * @param env values read by `readEnv` (a bare string counts as from the environment)
 * @param given explicit client options (former names taken, with a deprecation warning)
 * @param needs what the caller is about to do: when anything is wrong, its missing settings join the same error
 * @returns the validated configuration
 * @throws {ConfigError} `CONFIG_INVALID` listing every missing or malformed setting, with its source
 * @throws {InsecureUrlError} `INSECURE_AUTH_URL` for a password over plain http to a non-loopback host
 */
export function parseConfig(env: EnvInput, given: SettingOptions & DeprecatedSettingOptions = {}, needs?: Needs): Config {
  const options = withCurrentNames(given);
  const raw: Partial<Record<SettingName, string>> = {};
  const sources: Partial<Record<SettingName, Source>> = {};
  for (const name of NAMES) {
    const option = options[name];
    const given = env[SETTINGS[name].env];
    const found: Found | undefined = typeof given === 'string' ? { value: given, source: { kind: 'environment' } } : given;
    const value = option !== undefined ? String(option) : found?.value;
    if (value === undefined || value.trim() === '') continue;
    raw[name] = value; // each schema trims what may be trimmed; a secret is kept exactly as given
    sources[name] = option !== undefined || !found ? { kind: 'option' } : found.source;
  }
  const result = v.safeParse(SettingsSchema, raw);
  // One line per setting: a value can fail several checks of the same pipe.
  const byKey = new Map<string, ConfigIssue>();
  for (const issue of result.issues ?? []) {
    const name = issue.path?.[0]?.key as SettingName;
    const source = sources[name];
    if (!byKey.has(name)) {
      byKey.set(name, { key: SETTINGS[name].env, option: name, message: issue.message, source: source && describeSource(source) });
    }
  }
  // Every use but the UI's needs the slicing service id: the default scope's (a value set but malformed is in byKey,
  // a missing one here). When anything is wrong, the same error also lists what the caller's next step needs, so a
  // user fixes the configuration in one round.
  const baseline = needs?.scope === null ? [] : missingFor(raw, {}).filter((i) => i.option === DEFAULT_SERVICE.id.option);
  const issues = [...byKey.values(), ...baseline];
  if (issues.length > 0 && needs) {
    for (const issue of missingFor(raw, needs)) if (!issues.some((i) => i.key === issue.key)) issues.push(issue);
  }
  if (!result.success || issues.length > 0) {
    throw new ConfigError(inTableOrder(explainDenied(issues, env)), undefined, firstRun(sources));
  }
  const settings = result.output;
  const config: Config = {
    ...settings,
    credentials: settings.authUrl && settings.username && settings.password
      ? { authUrl: settings.authUrl, username: settings.username, password: settings.password }
      : undefined,
    sources,
  };
  if (config.authUrl && config.password && !config.allowInsecureHttp) assertSafeUrl(config.authUrl, 'SLICER_AUTH_URL');
  if (config.storeUrl && config.cacheFile) {
    warnOnce(
      `${SETTINGS.cacheFile.env} (option cacheFile) is not used: ${SETTINGS.storeUrl.env} (option storeUrl) is set too, and ` +
        'Redis is the shared token store (unset one of them)',
    );
  }
  return config;
}

/**
 * Checks that a configuration has what a task needs.
 *
 * @param config a parsed configuration
 * @param needs the scope, URL kind and credentials the task needs
 * @param task what is being attempted, for the message, e.g. `run the contract suite`
 * @throws {ConfigError} `CONFIG_INVALID` listing everything missing at once
 */
export function requireSettings(config: Config, needs: Needs, task?: string): void {
  const issues = missingFor(config, needs);
  if (issues.length > 0) throw new ConfigError(issues, task, firstRun(config.sources));
}

/**
 * The values of the settings the table marks `secret`, plus the password
 * inside a Redis URL: what every message of a client is redacted by. A Redis
 * URL of only an address (no user, password, query or fragment) hides nothing:
 * it stays readable where messages name the store by it.
 *
 * @param config a parsed configuration
 * @returns the secret values that are set
 */
export function secretsOf(config: Config): (Secret | string)[] {
  const url = config.storeUrl === undefined ? undefined : new URL(config.storeUrl.reveal()); // its schema parsed it
  const bare = url !== undefined && !url.username && !url.password && !url.search && !url.hash;
  const marked = NAMES.filter((name) => 'secret' in SETTINGS[name] && !(name === 'storeUrl' && bare)).map((name) => config[name]);
  const storePassword = url ? decodedOrAsIs(url.password) : '';
  return [...(marked.filter((value) => value instanceof Secret) as Secret[]), ...(storePassword ? [storePassword] : [])];
}

/** A URL's percent-encoded part decoded; as written when it does not decode (a lone `%`), so redaction still finds it. */
function decodedOrAsIs(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
