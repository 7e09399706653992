/**
 * Access tokens for the slicing service, from its authorization service.
 *
 * Configure with environment variables or `.env` (see `.env.example`), then:
 *
 * @example
 * ```ts
 * import { authedFetch, getToken } from './mod.ts';
 *
 * const token = await getToken(); // scope "slicer"; "predict" for the prediction service
 * const answer = await authedFetch.post('slice', { json: { file: 'part.stl' } }).json();
 * ```
 *
 * Tokens are cached and refreshed before they expire; a 401 triggers one
 * retry with a fresh token. Every error extends {@link AuthError} and has a
 * stable `code` ({@link ErrorCode}).
 *
 * @module
 */
export { authedFetch, getToken, getTokenInfo, tokenFetch } from './src/default_client.ts';
export { createAuthClient } from './src/client.ts';
export type { AuthClient, AuthClientOptions, FetchLike, Logger, TokenFetch, TokenFetchInit } from './src/client.ts';
export type { AuthedFetch, AuthedFetchOptions } from './src/request/authed_fetch.ts';
export type { SettingOptions, TokenTransport } from './src/settings/config.ts';
export type { ScopeInput } from './src/settings/services.ts';
export type { GetTokenOptions } from './src/token_cache/token_cache.ts';
export type { CacheLayer, TokenInfo, TokenOrigin } from './src/grant.ts';
export type { AuthEvent, AuthEventListener, AuthEventType, EventListener } from './src/events.ts';
export { createMemoryStore } from './src/stores/memory.ts';
export type { Release, StoredGrant, StoreKey, TokenStore } from './src/stores/store.ts';
export {
  AuthError,
  ClientClosedError,
  ConfigError,
  ErrorCode,
  InsecureAuthUrlError,
  InsecureUrlError,
  isAuthError,
  MinValidityUnreachableError,
  PermanentTokenRejectedError,
  TokenEndpointRedirectError,
  TokenEndpointUnavailableError,
  TokenRequestRejectedError,
  TokenResponseError,
  UnauthorizedError,
} from './src/errors.ts';
export type { ConfigIssue } from './src/errors.ts';
