/**
 * The client's public shapes: the options of `createAuthClient`, the client
 * itself, and `tokenFetch`'s signature, with the checks of the options given
 * to `createAuthClient` and `getToken`. `client.ts` builds them.
 */
import * as v from 'valibot';
import type { Clock } from './clock.ts';
import { ConfigError } from './errors.ts';
import type { AuthEventListener } from './events.ts';
import type { FetchLike, Logger } from './fetch.ts';
import type { TokenInfo } from './grant.ts';
import type { AuthedFetch, AuthedFetchOptions } from './request/authed_fetch.ts';
import type { TokenFetch, TokenFetchInit } from './request/request_engine.ts';
import type { DeprecatedSettingOptions, SettingOptions } from './settings/config.ts';
import type { ReadEnvOptions } from './settings/env.ts';
import type { ScopeInput } from './settings/services.ts';
import { message } from './settings/setting_schemas.ts';
import type { TokenStore } from './stores/store.ts';
import type { GetTokenOptions } from './token_cache/token_cache.ts';

/** Options of {@link createAuthClient}. Settings override the matching variables. */
export interface AuthClientOptions extends SettingOptions, DeprecatedSettingOptions, ReadEnvOptions {
  /**
   * The fetch every request goes through (token endpoint and services).
   * @default globalThis.fetch
   */
  fetch?: FetchLike | undefined;
  /**
   * Monotonic clock in ms; token lifetimes are measured on it (overrides `clock.now`).
   * @default performance.now, with the time the machine was suspended added
   */
  now?: (() => number) | undefined;
  /**
   * The clock every wait and timestamp of the client runs on: monotonic time,
   * wall time (shared stores) and sleeping (waiting for another process's token).
   * @default the system clock
   */
  clock?: Clock | undefined;
  /**
   * Random source in [0, 1) for refresh jitter and the waits between token-request retries.
   * @default Math.random
   */
  random?: (() => number) | undefined;
  /**
   * Where log lines go, at the level of `logLevel` (`SLICER_LOG_LEVEL`).
   * @default console, prefixed "[slicer-auth]"
   */
  logger?: Logger | undefined;
  /**
   * ky options every `authedFetch` call of this client starts from (`timeout`, `retry`, `hooks`, `headers`,
   * `prefixUrl`, …), as `ky.create` takes them; each call's own options merge over them.
   */
  ky?: AuthedFetchOptions | undefined;
  /**
   * Receives every event of the client (token requests, cache hits, refreshes, 401s, store fall-backs,
   * lock waits); never a secret. A listener that throws is ignored.
   */
  onEvent?: AuthEventListener | undefined;
  /**
   * Report spans and metrics to OpenTelemetry when the application registered an SDK before creating the client.
   * @default DEFAULTS.openTelemetry (true)
   */
  openTelemetry?: boolean | undefined;
  /**
   * A shared token store (your own engine, or `createMemoryStore()` to share between clients).
   * @default Redis with `SLICER_STORE_URL`, the file of `SLICER_CACHE_FILE`, else this process's memory, shared by
   *   the clients with the same credentials and clock
   */
  store?: TokenStore | undefined;
  /**
   * Timeout of one token-endpoint attempt, ms: a whole number from 1 to 2147483647.
   * @default DEFAULTS.tokenTimeoutMs (10000)
   */
  tokenTimeoutMs?: number | undefined;
  /**
   * Retries of the token endpoint after a network error, timeout, 408, 429 or 5xx: a whole number from 0 to 10.
   * @default DEFAULTS.tokenRetries (2)
   */
  tokenRetries?: number | undefined;
}

/** A function. */
const aFunction = v.custom<unknown>((value) => typeof value === 'function', message('expected a function'));

/** An object (not null, not an array). */
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** An object with these methods: a clock, a logger, a store. */
const withMethods = (...names: string[]) =>
  v.custom<unknown>(
    (value) => isObject(value) && names.every((name) => typeof value[name] === 'function'),
    message(`expected an object with the method${names.length > 1 ? 's' : ''} ${names.join(', ')}`),
  );

/** A boolean. */
const aBoolean = v.boolean(message('expected true or false'));

/** A whole number from `min` to `max`. */
const wholeNumber = (min: number, max: number, unit: string) =>
  v.custom<unknown>(
    (value) => Number.isInteger(value) && (value as number) >= min && (value as number) <= max,
    message(`expected a whole number${unit} from ${min} to ${max}`),
  );

/**
 * Every option of {@link AuthClientOptions} that is no setting, named once with what it must hold: the compiler holds
 * the list to the interface, and `createAuthClient` refuses a value given that does not match (undefined is no value).
 * Messages are fixed text: an option may hold a secret (`env`).
 */
export const CODE_OPTIONS: Readonly<
  Record<Exclude<keyof AuthClientOptions, keyof SettingOptions | keyof DeprecatedSettingOptions>, v.GenericSchema>
> = {
  fetch: aFunction,
  now: aFunction,
  clock: withMethods('now', 'wallNow', 'sleep'),
  random: aFunction,
  logger: withMethods('warn'),
  ky: v.custom<unknown>(isObject, message('expected an object of ky options')),
  onEvent: aFunction,
  openTelemetry: aBoolean,
  store: withMethods('get', 'put', 'deleteIfSame', 'lock'),
  // setTimeout's limit: a longer timer would fire at once.
  tokenTimeoutMs: wholeNumber(1, 2_147_483_647, ' of ms'),
  tokenRetries: wholeNumber(0, 10, ''),
  // Not enumerated: Deno lists process.env only with the permission to read every variable.
  env: v.custom<unknown>(isObject, message('expected an object of variables, as process.env')),
  envFile: v.union([v.string(), v.literal(false)], message('expected a file path, or false to read none')),
};

const secondsExpected = message('expected a number of seconds, 0 or more');

/** `getToken`'s options. Without this check a misspelt one (`minvalidity`) would be ignored, a `'60'` coerced, and a `null` fail deep inside. */
const GET_TOKEN_OPTIONS = v.strictObject(
  {
    minValidity: v.optional(v.pipe(v.number(secondsExpected), v.finite(secondsExpected), v.minValue(0, secondsExpected))),
    signal: v.optional(
      v.custom<AbortSignal>((value) => value instanceof EventTarget && 'aborted' in value, message('expected an AbortSignal')),
    ),
    forceRefresh: v.optional(aBoolean),
  },
  (issue) => issue.expected === 'never' ? 'not an option of getToken' : 'expected an object of options, or undefined',
);

/**
 * Checks `getToken`'s options before anything is done with them.
 *
 * @param getOptions the options given
 * @returns them, unchanged
 * @throws {ConfigError} `CONFIG_INVALID` naming each option at fault
 */
export function checkGetOptions(getOptions: GetTokenOptions | undefined): GetTokenOptions | undefined {
  const checked = getOptions === undefined ? undefined : v.safeParse(GET_TOKEN_OPTIONS, getOptions);
  if (!checked || checked.success) return getOptions;
  const issues = checked.issues.map((issue) => ({ key: v.getDotPath(issue) ?? 'options', message: issue.message }));
  throw new ConfigError(issues, 'use these getToken options');
}

export type { TokenFetch, TokenFetchInit };

/** One configured client. */
export interface AuthClient {
  /**
   * A valid access token for a scope: the permanent token if one is configured,
   * else a cached temporary token, refreshed before it expires.
   * @param scope `'slicer'` (default), `'predict'` or `service_id=<id>`
   * @param options `minValidity`: seconds the token must still be valid; `signal`: stop waiting (this call only);
   *   `forceRefresh`: replace the token in every layer
   * @throws {AuthError} `CONFIG_INVALID` (also for a malformed scope or option), `TOKEN_REQUEST_REJECTED`, `TOKEN_ENDPOINT_UNAVAILABLE`, `TOKEN_RESPONSE_INVALID`,
   *   `MIN_VALIDITY_UNREACHABLE`, `CLIENT_CLOSED`; the signal's reason when it aborts
   */
  getToken(scope?: ScopeInput, options?: GetTokenOptions): Promise<string>;
  /**
   * {@link AuthClient.getToken} with what is known of the token: its scope,
   * when it expires, when this client obtained it, and where it came from.
   * @param scope as for getToken
   * @param options as for getToken
   * @returns `{ token, scope, expiresAt, obtainedAt, source }`
   * @throws {AuthError} as getToken
   * @example
   * ```ts
   * const { expiresAt, source } = await client.getTokenInfo('slicer'); // source: 'memory' | 'file' | 'redis' | 'request' | …
   * ```
   */
  getTokenInfo(scope?: ScopeInput, options?: GetTokenOptions): Promise<TokenInfo>;
  /**
   * The base URL a scope's relative paths resolve against (`SLICER_BASE_URL`, `SLICER_PREDICT_BASE_URL`), as configured,
   * for a script that needs it (to build a link, say); `tokenFetch` and `authedFetch` take relative paths themselves.
   * @param scope `'slicer'` (default), `'predict'` or `service_id=<id>`
   * @returns the base URL without a final slash, or undefined when it is not set
   * @throws {ConfigError} `CONFIG_INVALID` for a scope of none of these forms
   * @example
   * ```ts
   * console.log(`jobs at ${client.baseUrl()}/jobs`);
   * ```
   */
  baseUrl(scope?: ScopeInput): string | undefined;
  /** Authenticated ky-like instance; see {@link AuthedFetch}. */
  readonly authedFetch: AuthedFetch;
  /**
   * The platform's `fetch` with the token: same signature, a `Response` for any status (a second 401 too),
   * the same token engine as authedFetch (single flight, refresh ahead, one retry after a 401 when the body
   * can be sent again, origin binding, same-origin redirects, header or `token` argument). The scope is the
   * service whose base URL the URL is under, or `init.scope`; a relative path resolves against its base URL.
   * @throws {AuthError} `CONFIG_INVALID`, the token endpoint's errors, `CLIENT_CLOSED`; network errors as fetch
   * @example
   * ```ts
   * const job = await client.tokenFetch('jobs/7'); // relative: under SLICER_BASE_URL
   * const forecast = await client.tokenFetch('forecast', { scope: 'predict' }); // under SLICER_PREDICT_BASE_URL
   * ```
   */
  readonly tokenFetch: TokenFetch;
  /**
   * Forgets temporary tokens, one scope's or all, in every layer that holds
   * them: memory, and the shared file or Redis store (compare-and-delete on
   * the token, so a newer token another process stored is kept). The next
   * `getToken` here or in any process sharing the store gets another token.
   * @param scope `'slicer'`, `'predict'` or `service_id=<id>`; all when omitted
   * @throws {AuthError} `CLIENT_CLOSED` after {@link AuthClient.close}
   */
  invalidate(scope?: ScopeInput): Promise<void>;
  /**
   * Releases what the client holds: waits for token requests in flight (so
   * their store locks are released) and closes the shared store's
   * connection. Later calls fail with `CLIENT_CLOSED`. Calling it twice is fine.
   * @example
   * ```ts
   * await using client = createAuthClient(); // closed when the block ends
   * ```
   */
  close(): Promise<void>;
  /** {@link AuthClient.close}, for `await using`. */
  [Symbol.asyncDispose](): Promise<void>;
}
