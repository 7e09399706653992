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
import type { Clock } from './clock.ts';
import type { FetchLike } from './fetch.ts';
import type { Grant, GrantFetcher } from './grant.ts';
import type { AuthEvent } from './events.ts';
import {
  ErrorCode,
  TokenEndpointRedirectError,
  TokenEndpointUnavailableError,
  TokenRequestRejectedError,
  TokenResponseError,
} from './errors.ts';
import { redact, sanitizeCause, type Secret } from './redact.ts';
import { OAuthErrorSchema, TokenResponseSchema } from './schemas.ts';

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
  /** The client's clock: grant lifetimes start when the request is sent; body reads are timed on it. */
  clock: Clock;
  /** Receives a `token.request` event per request; undefined when nobody listens. */
  emit?: ((event: AuthEvent) => void) | undefined;
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
  const { emit } = options;
  return async (scope) => {
    const sentAt = options.clock.now();
    let status: number | undefined;
    try {
      const response = await sendGrantRequest(options, scope);
      status = response.status;
      const grant = await processGrantResponse(response, scope, sentAt, [options.password]);
      emit?.({
        type: 'token.request',
        scope,
        url: tokenEndpoint(options.authUrl),
        durationMs: options.clock.now() - sentAt,
        outcome: 'ok',
        status,
      });
      return grant;
    } catch (error) {
      if (emit) {
        const failure = error as { code?: ErrorCode; status?: number };
        emit({
          type: 'token.request',
          scope,
          url: tokenEndpoint(options.authUrl),
          durationMs: options.clock.now() - sentAt,
          outcome: failure.code ?? ErrorCode.TOKEN_ENDPOINT_UNAVAILABLE,
          status: failure.status ?? status,
        });
      }
      throw error;
    }
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
  const timeout = options.timeoutMs ?? 10_000;
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
      // The password goes to the configured endpoint only: a redirect is reported, never followed.
      redirect: 'manual',
      timeout,
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
      // ky's timeout ends with the headers; the body is read here, inside the retry loop, under the same limit.
      hooks: { afterResponse: [(_request, _options, response) => buffered(response, timeout, options.clock)] },
    });
  } catch (error) {
    const secrets = [options.password];
    const where = `Cannot get a token for scope "${redact(scope, secrets)}" from ${url}`;
    if (isHTTPError(error)) {
      const status = `${error.response.status} ${error.response.statusText}`.trim();
      const oauth = await oauthFields(error.response, secrets);
      const detail = [oauth.error, oauth.error_description].filter(Boolean).join(': ');
      // A 4xx carrying an OAuth error (429 invalid_grant for a locked account) is a refusal, whatever its status.
      if (oauth.error && error.response.status < 500) {
        throw new TokenRequestRejectedError(`${where}: the token endpoint answered ${status} ${detail} after retries`, {
          status: error.response.status,
          ...oauth,
          response: error.response,
        });
      }
      throw new TokenEndpointUnavailableError(
        `${where}: the token endpoint answered ${status}${detail ? ` ${detail}` : ''} after retries`,
        {
          status: error.response.status,
          response: error.response,
          ...oauth,
        },
      );
    }
    if (isTimeoutError(error) || (error as Error).name === BODY_TIMEOUT) {
      throw new TokenEndpointUnavailableError(`${where}: no complete answer within ${timeout} ms (timeout), after retries`);
    }
    const cause = networkCause(error);
    throw new TokenEndpointUnavailableError(
      `${where}: cannot reach ${new URL(url).host}${cause ? ` (${cause})` : ''}: ${
        redact((error as Error).message ?? String(error), secrets)
      }`,
      { cause: sanitizeCause(error, secrets) },
    );
  }
}

const BODY_TIMEOUT = 'BodyTimeoutError';

/**
 * Reads a whole body within a time limit and returns an equivalent buffered response.
 *
 * @param response an answer whose headers arrived
 * @param timeoutMs how long the body may take
 * @param clock waits out the time limit
 * @returns the same answer, fully read
 * @throws Error named `BodyTimeoutError` on a stall; the stream's error when the connection drops
 */
async function buffered(response: Response, timeoutMs: number, clock: Clock): Promise<Response> {
  const done = new AbortController();
  const stalled = clock.sleep(timeoutMs, done.signal).then(() => {
    void response.body?.cancel().catch(() => undefined);
    throw Object.assign(new Error(`The answer's body did not arrive within ${timeoutMs} ms`), { name: BODY_TIMEOUT });
  });
  try {
    const text = await Promise.race([response.text(), stalled]);
    return new Response(response.status === 204 || response.status === 304 ? null : text, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  } finally {
    done.abort();
  }
}

/**
 * The low-level reason of a network failure, e.g. `ECONNREFUSED`, `ENOTFOUND`,
 * `CERT_HAS_EXPIRED`, from the error's cause chain (Node's `code`, Deno's and
 * Bun's names and messages).
 *
 * @param error what fetch threw
 * @returns the reason, or undefined when none is known
 */
export function networkCause(error: unknown): string | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && code !== 'UND_ERR_SOCKET') return code;
    const os = /(connection refused|dns error|failed to lookup|certificate|timed out|connection reset)/i.exec(e.message)?.[1];
    if (os) return os.toLowerCase();
  }
  return undefined;
}

/** The OAuth `error` and `error_description` of an answer (RFC 6749 §5.2), redacted; empty when it has none. */
async function oauthFields(response: Response, secrets: readonly (string | Secret)[]) {
  let json: unknown;
  try {
    json = JSON.parse(await response.text());
  } catch {
    return {};
  }
  const body = v.safeParse(OAuthErrorSchema, json);
  if (!body.success) return {};
  const clean = (value: string | undefined) => (value === undefined ? undefined : redact(value, secrets));
  return { error: clean(body.output.error), error_description: clean(body.output.error_description) };
}

/**
 * Validates a token endpoint answer and turns it into a grant.
 *
 * @param response the answer (2xx or 4xx)
 * @param scope the scope that was asked for; the answer must echo it (or leave it out)
 * @param sentAt monotonic instant the request was sent; the lifetime counts from it
 * @param secrets values to redact from any message
 * @returns the grant
 * @throws {TokenEndpointRedirectError} `TOKEN_ENDPOINT_REDIRECT` for a 3xx
 * @throws {TokenRequestRejectedError} `TOKEN_REQUEST_REJECTED` for a 4xx
 * @throws {TokenResponseError} `TOKEN_RESPONSE_INVALID` for a 2xx that is not a valid token response
 */
export async function processGrantResponse(
  response: Response,
  scope: string,
  sentAt: number,
  secrets: readonly (string | Secret)[],
): Promise<Grant> {
  const where = `Cannot get a token for scope "${redact(scope, secrets)}"`;
  if (response.status >= 300 && response.status < 400) {
    // Never followed (see sendGrantRequest): the password would go wherever it points.
    const location = response.headers.get('location');
    const target = location ? new URL(location, response.url || 'http://invalid/') : undefined;
    const shown = target ? `${target.origin === 'http://invalid' ? '' : target.origin}${target.pathname}` : 'nowhere';
    throw new TokenEndpointRedirectError(
      `${where}: the token endpoint answered ${response.status}, a redirect to ${redact(shown, secrets)}; ` +
        'the password is sent to the configured endpoint only: check SLICER_AUTH_URL (https, exact path)',
      // No `response` kept: its Location header may carry anything, and inspect(showHidden) would show it.
      { status: response.status, location: target ? redact(shown, secrets) : undefined },
    );
  }
  if (!response.ok) {
    const oauth = await oauthFields(response, secrets);
    const detail = [oauth.error, oauth.error_description].filter(Boolean).join(': ');
    throw new TokenRequestRejectedError(
      `${where}: the token endpoint answered ${response.status}${detail ? ` ${detail}` : ''}`,
      { status: response.status, ...oauth, response },
    );
  }
  const contentType = response.headers.get('content-type') ?? 'no content type';
  const text = await response.text();
  let json: unknown;
  let parsed = true;
  try {
    json = JSON.parse(text);
  } catch {
    parsed = false;
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
  if (grant.scope !== undefined && !grant.scope.split(/\s+/).includes(scope)) {
    // Using a token for another service than asked is a security bug, not a nuisance. A scope left
    // out is the requested one (RFC 6749 §5.1); a space-delimited list (§3.3) must hold it.
    throw new TokenResponseError(
      `${where}: the token response is for scope "${redact(grant.scope, [...secrets, grant.access_token])}", not the one requested`,
      ['scope'],
    );
  }
  const lifetime = grant.expires_in * 1000;
  return { token: grant.access_token, expiresAt: sentAt + lifetime, lifetime };
}
