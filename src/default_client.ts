/**
 * The free `getToken` and `authedFetch`: they reach one client built lazily
 * from the environment on first use, so importing the module does no work.
 */
import type { ResponsePromise } from 'ky';
import { type AuthClient, buildClient, type TokenFetch } from './client.ts';
import type { TokenInfo } from './grant.ts';
import { type AuthedFetch, authedFetchOf, type Defaults } from './request/authed_fetch.ts';
import { isRelative } from './request/request_url.ts';
import type { Needs } from './settings/config.ts';
import type { ScopeInput } from './settings/services.ts';
import type { GetTokenOptions } from './token_cache/token_cache.ts';

let client: AuthClient | undefined;

/** The default client; `needs` describes the first call, so a configuration error lists all it lacks. */
function defaultClient(needs?: Needs): AuthClient {
  client ??= buildClient({}, needs);
  return client;
}

/**
 * A valid access token for a scope, from the client configured by the
 * environment and `.env`.
 *
 * @param scope `'slicer'` (default), `'predict'` or `service_id=<id>`
 * @param options `minValidity`: seconds the token must still be valid
 * @returns the access token
 * @throws {AuthError} `CONFIG_INVALID`, `INSECURE_AUTH_URL`, `TOKEN_REQUEST_REJECTED`,
 *   `TOKEN_ENDPOINT_UNAVAILABLE`, `TOKEN_RESPONSE_INVALID`
 * @example
 * ```ts
 * const token = await getToken('predict', { minValidity: 900 });
 * ```
 */
export async function getToken(scope?: ScopeInput, options?: GetTokenOptions): Promise<string> {
  return defaultClient({ scope }).getToken(scope, options);
}

/**
 * {@link getToken} with what is known of the token: scope, expiry, when it
 * was obtained and where it came from (memory, file, redis, request, permanent).
 *
 * @param scope `'slicer'` (default), `'predict'` or `service_id=<id>`
 * @param options as for getToken
 * @returns the token and its facts
 * @throws {AuthError} as getToken
 * @example
 * ```ts
 * const { token, expiresAt } = await getTokenInfo('slicer', { minValidity: 900 });
 * ```
 */
export async function getTokenInfo(scope?: ScopeInput, options?: GetTokenOptions): Promise<TokenInfo> {
  return defaultClient({ scope }).getTokenInfo(scope, options);
}

/**
 * Authenticated ky-like instance of the client configured by the environment:
 * relative paths resolve against `SLICER_BASE_URL` (or `SLICER_PREDICT_BASE_URL`
 * with `scope: 'predict'`).
 *
 * @example
 * ```ts
 * const result = await authedFetch.post('slice', { json: { model: 'part.stl' } }).json();
 * ```
 */
export const authedFetch: AuthedFetch = authedFetchOf((input, options, defaults): ResponsePromise => {
  const scope = options?.scope ?? defaults?.options.scope;
  const client = defaultClient({ scope, relative: isRelative(input) });
  return (defaults ? extended(client, defaults) : client.authedFetch)(input, options);
});

/** The default client's instance for an extended free `authedFetch`, made once per defaults. */
const instances = new WeakMap<Defaults, AuthedFetch>();
function extended(client: AuthClient, defaults: Defaults): AuthedFetch {
  let instance = instances.get(defaults);
  // Stryker disable next-line ConditionalExpression: made again on every call, the instance has the same options
  if (!instance) instances.set(defaults, instance = client.authedFetch.extend(defaults.options));
  return instance;
}

/**
 * The platform's `fetch` with the token of the client configured by the
 * environment: same signature, a `Response` for any status. The scope is the
 * service whose base URL the URL is under, or `init.scope`.
 *
 * @example
 * ```ts
 * const response = await tokenFetch('jobs/7'); // relative: under SLICER_BASE_URL, as the default client read it
 * ```
 */
export const tokenFetch: TokenFetch = (input, init) =>
  defaultClient({ scope: init?.scope, relative: isRelative(input) }).tokenFetch(input, init);
