/**
 * Sends the password grant to the token endpoint (contract 4.1), with bounded
 * retries and every read under a timeout, and words what kept it from an
 * answer (a timeout, the network, a body too large); `grant_response.ts`
 * turns the answer into a grant, or into its error.
 *
 * Errors from here never wrap ky's `HTTPError`: its `options` hold the form
 * body with the password; a network failure is attached as a sanitized copy
 * of its cause chain ({@link sanitizeCause}).
 */
import ky, { isHTTPError, isTimeoutError } from 'ky';
import type { Clock } from '../clock.ts';
import { DEFAULTS } from '../defaults.ts';
import { ErrorCode, TokenEndpointUnavailableError, TokenResponseError } from '../errors.ts';
import type { AuthEvent } from '../events.ts';
import type { FetchLike } from '../fetch.ts';
import type { GrantFetcher } from '../grant.ts';
import { BodyTimeoutError, BodyTooLargeError, buffered, MAX_ANSWER_BYTES } from './grant_body.ts';
import { lastAnswerError, processGrantResponse } from './grant_response.ts';
import { cannotReach, networkCause, networkFix } from './network_cause.ts';
import { type Redactor, redactor, type Secret } from '../redact.ts';
import { retryAfterMs } from './retry_after.ts';

/** What {@link createTokenSource} needs. */
export interface TokenSourceOptions {
  /** Base address of the authorization service, without trailing slash. */
  authUrl: string;
  /** User name for the grant. */
  username: string;
  /** Password for the grant. */
  password: Secret;
  /**
   * Removes the caller's other secrets from every message (a client's: its permanent tokens, its store's key).
   * @default none: the password alone is removed, as it always is
   */
  redact?: Redactor | undefined;
  /** The fetch to send with. */
  fetch: FetchLike;
  /** The client's clock: grant lifetimes start when the request is sent; body reads are timed on it. */
  clock: Clock;
  /** Random source in [0, 1): spreads each wait between retries over [0, the backoff], so a fleet does not retry in step. */
  random: () => number;
  /** Receives a `token.request` event per request; undefined when nobody listens. */
  emit?: ((event: AuthEvent) => void) | undefined;
  /**
   * Timeout of one attempt in ms.
   * @default DEFAULTS.tokenTimeoutMs (10000)
   */
  timeoutMs?: number | undefined;
  /**
   * Retries after a network error, timeout, 408, 429 or 5xx.
   * @default DEFAULTS.tokenRetries (2)
   */
  retries?: number | undefined;
}

/** Statuses worth another attempt; ky honours `Retry-After` on 413, 429 and 503. */
const RETRY_STATUSES = [408, 429, 500, 502, 503, 504];

/** The longest `Retry-After` waited for between attempts; an answer asking for longer ends the request at once. */
const MAX_RETRY_AFTER_MS = 30_000;

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
 * The wait before a retry: a random share of ky's backoff delay (full
 * jitter), so that clients that failed together do not retry in step.
 *
 * @param delay ky's backoff delay in ms
 * @param random a source in [0, 1)
 * @returns a wait in [0, delay)
 */
export function retryWait(delay: number, random: () => number): number {
  return delay * random();
}

/**
 * What a token source's messages are cleaned with: the password it sends, always, then the caller's other secrets.
 *
 * @param options the source's password and the caller's redactor
 * @returns the redactor
 */
function cleaner(options: TokenSourceOptions): Redactor {
  const password = redactor([options.password]);
  const { redact } = options;
  return redact ? (text) => redact(password(text)) : password;
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
  const clean = cleaner(options);
  return async (scope) => {
    const sentAt = options.clock.now();
    let status: number | undefined;
    try {
      const response = await sendGrantRequest(options, scope, clean);
      status = response.status;
      const grant = await processGrantResponse(response, scope, sentAt, clean);
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
 * @param clean the source's redactor, made once per source ({@link cleaner})
 * @returns the final response (2xx or 4xx)
 * @throws {TokenEndpointUnavailableError} `TOKEN_ENDPOINT_UNAVAILABLE` after the retries
 */
export async function sendGrantRequest(
  options: TokenSourceOptions,
  scope: string,
  clean: Redactor = cleaner(options),
): Promise<Response> {
  const url = tokenEndpoint(options.authUrl);
  const timeout = options.timeoutMs ?? DEFAULTS.tokenTimeoutMs;
  const retries = options.retries ?? DEFAULTS.tokenRetries;
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
        limit: retries,
        methods: ['post'],
        statusCodes: RETRY_STATUSES,
        retryOnTimeout: true,
        // An answer too large is that of another resource: asking again fetches it again. One that asks for a
        // longer wait than is waited here is not asked again sooner than it says.
        shouldRetry: ({ error }) =>
          error instanceof BodyTooLargeError || askedTooLong(error, options.clock) !== undefined ? false : undefined,
        jitter: (delay) => retryWait(delay, options.random),
        backoffLimit: 5_000,
        maxRetryAfter: MAX_RETRY_AFTER_MS,
      },
      // ky's timeout ends with the headers; the body is read here, inside the retry loop, under the same limit.
      hooks: { afterResponse: [(_request, _options, response) => buffered(response, timeout, options.clock)] },
    });
  } catch (error) {
    const where = `Cannot get a token for scope "${clean(scope)}" from ${url}`;
    // Said only when the request was asked again (the doctor asks once).
    const afterRetries = retries > 0 ? ` after ${retries} ${retries === 1 ? 'retry' : 'retries'}` : '';
    if (isHTTPError(error)) {
      const asked = askedTooLong(error, options.clock);
      const tried = asked === undefined
        ? afterRetries
        : `; it asks for ${Math.ceil(asked / 1000)} s before the next request (Retry-After), so it was not asked again`;
      throw await lastAnswerError(error.response, where, tried, clean);
    }
    if (error instanceof BodyTooLargeError) {
      throw new TokenResponseError(
        `${where}: the token endpoint answered ${error.status} with more than ${MAX_ANSWER_BYTES / 1024 / 1024} MiB, ` +
          'which no token answer is; check SLICER_AUTH_URL',
      );
    }
    if (isTimeoutError(error) || error instanceof BodyTimeoutError) {
      throw new TokenEndpointUnavailableError(`${where}: no complete answer within ${timeout} ms (timeout)${afterRetries}`);
    }
    const found = networkCause(error);
    const cause = found === undefined ? undefined : clean(found);
    // With a known reason, what to check; a runtime's own refusal (Deno's missing --allow-net) names its fix itself.
    const fix = cause === undefined ? '' : `; ${networkFix(cause, 'check SLICER_AUTH_URL and that the authorization service is up', url)}`;
    throw new TokenEndpointUnavailableError(
      `${where}: ${cannotReach(url, cause)}: ${clean((error as Error).message ?? String(error))}${fix}`,
      { cause: sanitizeCause(error, clean) },
    );
  }
}

/**
 * The wait an answer asks for before the next request, when it is longer than is waited between attempts.
 *
 * @param error what ky threw
 * @param clock the wall clock, for a date
 * @returns its `Retry-After` in ms, when it is an HTTP error's answer asking for more than {@link MAX_RETRY_AFTER_MS}
 */
function askedTooLong(error: unknown, clock: Clock): number | undefined {
  const asked = isHTTPError(error) ? retryAfterMs(error.response.headers.get('retry-after'), clock.wallNow()) : undefined;
  return (asked ?? 0) > MAX_RETRY_AFTER_MS ? asked : undefined;
}

/**
 * Copies an error chain into plain errors with redacted messages and no other
 * fields, so a low-level cause (a network error, say) can be attached to one of
 * our errors without carrying request options or bodies along.
 *
 * @param error anything caught
 * @param clean removes the known secrets from a message
 * @returns a plain `Error` whose message and causes are redacted
 */
export function sanitizeCause(error: unknown, clean: Redactor, depth = 0): Error {
  const source = error instanceof Error ? error : new Error(String(error));
  const nested = depth < 5 && source.cause !== undefined ? { cause: sanitizeCause(source.cause, clean, depth + 1) } : undefined;
  const copy = new Error(clean(source.message), nested);
  copy.name = source.name;
  const code = (source as { code?: unknown }).code;
  if (typeof code === 'string') Object.assign(copy, { code });
  copy.stack = `${copy.name}: ${copy.message}`;
  return copy;
}
