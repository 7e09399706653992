/**
 * Sends the password grant to the token endpoint (contract 4.1) and turns the
 * answer into a {@link Grant}. Sending and processing are separate functions;
 * nothing downstream sees raw JSON.
 *
 * Errors from here never wrap ky's `HTTPError`: its `options` hold the form
 * body with the password.
 */
import ky, { isHTTPError, isTimeoutError } from 'ky';
import * as v from 'valibot';
import type { FetchLike } from './client.ts';
import { TokenEndpointUnavailableError, TokenRequestRejectedError, TokenResponseError } from './errors.ts';
import { redact, sanitizeCause, type Secret } from './redact.ts';
import { OAuthErrorSchema, TokenResponseSchema } from './schemas.ts';

/** A token with its lifetime, measured on the client's monotonic clock. */
export interface Grant {
  /** The access token. */
  readonly token: string;
  /** Monotonic instant (ms) at which it expires. */
  readonly expiresAt: number;
  /** Its full lifetime in ms, as the server stated it. */
  readonly lifetime: number;
}

/** Fetches a new grant for one scope. */
export type GrantFetcher = (scope: string) => Promise<Grant>;

/** What {@link createTokenSource} needs. */
export interface TokenSourceOptions {
  /** Base address of the authorization service, without trailing slash. */
  authUrl: string;
  /** User name for the grant. */
  username: string;
  /** Password for the grant. */
  password: Secret;
  /** The fetch to send with. */
  fetch: FetchLike;
  /** Monotonic clock in ms. */
  now: () => number;
  /**
   * Timeout of one attempt in ms.
   * @default 10000
   */
  timeoutMs?: number | undefined;
  /**
   * Retries after a network error, timeout, 408, 429 or 5xx.
   * @default 2
   */
  retries?: number | undefined;
}

/** Statuses worth another attempt; ky honours `Retry-After` on 413, 429 and 503. */
const RETRY_STATUSES = [408, 429, 500, 502, 503, 504];

/**
 * The token endpoint of an authorization service.
 *
 * @param authUrl base address, normalised by the config (no trailing slash)
 * @returns `{auth_url}/oauth2/token/`
 */
export function tokenEndpoint(authUrl: string): string {
  return `${authUrl}/oauth2/token/`;
}

/**
 * Builds a fetcher of grants for one user at one authorization service.
 *
 * @param options endpoint, credentials, transport and clock
 * @returns a function that fetches a new grant for a scope
 * @throws (from the returned function) `TOKEN_REQUEST_REJECTED`, `TOKEN_ENDPOINT_UNAVAILABLE`, `TOKEN_RESPONSE_INVALID`
 */
export function createTokenSource(options: TokenSourceOptions): GrantFetcher {
  return async (scope) => {
    const sentAt = options.now();
    const response = await sendGrantRequest(options, scope);
    return processGrantResponse(response, scope, sentAt, [options.password]);
  };
}

/**
 * Sends one password grant, with bounded retries and backoff.
 *
 * @param options endpoint, credentials and transport
 * @param scope the scope to ask for
 * @returns the final response (2xx or 4xx)
 * @throws {TokenEndpointUnavailableError} `TOKEN_ENDPOINT_UNAVAILABLE` after the retries
 */
export async function sendGrantRequest(options: TokenSourceOptions, scope: string): Promise<Response> {
  const url = tokenEndpoint(options.authUrl);
  const body = new URLSearchParams({
    grant_type: 'password',
    username: options.username,
    password: options.password.reveal(),
    scope,
  });
  try {
    return await ky.post(url, {
      body,
      // Contract 4.1: the form content type must be set explicitly.
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      fetch: options.fetch,
      timeout: options.timeoutMs ?? 10_000,
      throwHttpErrors: (status) => RETRY_STATUSES.includes(status),
      retry: {
        limit: options.retries ?? 2,
        methods: ['post'],
        statusCodes: RETRY_STATUSES,
        retryOnTimeout: true,
        jitter: true,
        backoffLimit: 5_000,
        maxRetryAfter: 30_000,
      },
    });
  } catch (error) {
    const where = `Cannot get a token for scope "${scope}" from ${url}`;
    const secrets = [options.password];
    if (isHTTPError(error)) {
      await error.response.body?.cancel().catch(() => undefined);
      throw new TokenEndpointUnavailableError(
        `${where}: the token endpoint answered ${error.response.status} ${error.response.statusText}`.trim() + ' after retries',
        { status: error.response.status, response: error.response },
      );
    }
    if (isTimeoutError(error)) {
      throw new TokenEndpointUnavailableError(`${where}: no answer within ${options.timeoutMs ?? 10_000} ms, after retries`);
    }
    throw new TokenEndpointUnavailableError(`${where}: ${redact((error as Error).message ?? String(error), secrets)}`, {
      cause: sanitizeCause(error, secrets),
    });
  }
}

/**
 * Validates a token endpoint answer and turns it into a grant.
 *
 * @param response the answer (2xx or 4xx)
 * @param scope the scope that was asked for; the answer must echo it
 * @param sentAt monotonic instant the request was sent; the lifetime counts from it
 * @param secrets values to redact from any message
 * @returns the grant
 * @throws {TokenRequestRejectedError} `TOKEN_REQUEST_REJECTED` for a 4xx
 * @throws {TokenResponseError} `TOKEN_RESPONSE_INVALID` for a 2xx that is not a valid token response
 */
export async function processGrantResponse(
  response: Response,
  scope: string,
  sentAt: number,
  secrets: readonly (string | Secret)[],
): Promise<Grant> {
  const where = `Cannot get a token for scope "${scope}"`;
  const contentType = response.headers.get('content-type') ?? 'no content type';
  const text = await response.text();
  let json: unknown;
  let parsed = true;
  try {
    json = JSON.parse(text);
  } catch {
    parsed = false;
  }

  if (!response.ok) {
    const body = parsed ? v.safeParse(OAuthErrorSchema, json) : undefined;
    const error = body?.success ? body.output.error : undefined;
    const description = body?.success && body.output.error_description ? redact(body.output.error_description, secrets) : undefined;
    const detail = [error, description].filter(Boolean).join(': ');
    throw new TokenRequestRejectedError(
      `${where}: the token endpoint answered ${response.status}${detail ? ` ${detail}` : ''}`,
      { status: response.status, error, error_description: description, response },
    );
  }

  if (!parsed) {
    const looksHtml = /^\s*</.test(text) || contentType.includes('html');
    throw new TokenResponseError(
      `${where}: the token endpoint answered ${response.status} with ${looksHtml ? 'an HTML page' : 'a body that is not JSON'} ` +
        `(content type "${contentType}"), not a JSON token response; check SLICER_AUTH_URL`,
    );
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new TokenResponseError(`${where}: the token response is not a JSON object`, ['(body)']);
  }
  const result = v.safeParse(TokenResponseSchema, json);
  if (!result.success) {
    const problems = result.issues.map((issue) => ({ path: v.getDotPath(issue) ?? '(body)', message: issue.message }));
    throw new TokenResponseError(
      `${where}: the token response is malformed: ${problems.map((p) => `${p.path} ${p.message}`).join('; ')}`,
      problems.map((p) => p.path),
    );
  }
  const grant = result.output;
  if (grant.scope !== scope) {
    // Using a token for another service than asked is a security bug, not a nuisance.
    throw new TokenResponseError(
      `${where}: the token response is for scope "${redact(grant.scope, [...secrets, grant.access_token])}", not the one requested`,
      ['scope'],
    );
  }
  const lifetime = grant.expires_in * 1000;
  return { token: grant.access_token, expiresAt: sentAt + lifetime, lifetime };
}
