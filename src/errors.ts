/**
 * One error hierarchy for the whole module. Every error has a stable `code`; callers branch on it, never on the message.
 *
 * No error here ever holds a password or a token in an enumerable field:
 * messages are built from known-safe parts and redacted by the known secret
 * values (see `redact.ts`), and a raw `Response` is kept non-enumerable.
 */

/** Stable error codes, one per failure kind. */
export const ErrorCode = {
  /** A variable or option is missing or malformed. */
  CONFIG_INVALID: 'CONFIG_INVALID',
  /** The password would travel over plain http to a non-loopback host. */
  INSECURE_AUTH_URL: 'INSECURE_AUTH_URL',
  /** The token endpoint refused the grant with a 4xx (bad credentials, bad scope, …). */
  TOKEN_REQUEST_REJECTED: 'TOKEN_REQUEST_REJECTED',
  /** The token endpoint could not be reached, timed out or answered 5xx, after bounded retries. */
  TOKEN_ENDPOINT_UNAVAILABLE: 'TOKEN_ENDPOINT_UNAVAILABLE',
  /** The token endpoint answered with a redirect; it is never followed (the password would go with it). */
  TOKEN_ENDPOINT_REDIRECT: 'TOKEN_ENDPOINT_REDIRECT',
  /** The token endpoint answered 2xx with something that is not a valid token response. */
  TOKEN_RESPONSE_INVALID: 'TOKEN_RESPONSE_INVALID',
  /** A service refused a freshly fetched temporary token too (401 twice). */
  UNAUTHORIZED: 'UNAUTHORIZED',
  /** A service refused a configured permanent token (401): invalid or revoked. */
  PERMANENT_TOKEN_REJECTED: 'PERMANENT_TOKEN_REJECTED',
  /** The client was closed (`close()` or `await using`); it takes no more calls. */
  CLIENT_CLOSED: 'CLIENT_CLOSED',
  /** A `minValidity` longer than the lifetime of the tokens the service issues: no token can meet it. */
  MIN_VALIDITY_UNREACHABLE: 'MIN_VALIDITY_UNREACHABLE',
} as const;

/** One of the {@link ErrorCode} values. */
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/**
 * Base class of every error this module throws.
 *
 * @example
 * ```ts
 * try { await getToken(); } catch (err) { if (isAuthError(err)) console.error(err.code); }
 * ```
 */
export class AuthError extends Error {
  /** Stable, machine-readable error code. */
  readonly code: ErrorCode;

  /**
   * @param code the stable code of this failure
   * @param message a message that holds no secret
   * @param options standard error options; `cause` must itself be free of secrets
   */
  constructor(code: ErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

/** One problem found in the configuration. */
export interface ConfigIssue {
  /** The environment variable (or argument) at fault, e.g. `SLICER_BASE_URL`. */
  readonly key: string;
  /** The client option standing for that variable, e.g. `baseUrl`. */
  readonly option?: string | undefined;
  /** Where the faulty value came from (`environment`, `file .env`, `option`), when one was given. */
  readonly source?: string | undefined;
  /** What is wrong and what is expected. */
  readonly message: string;
}

/** Missing or malformed configuration; lists every problem at once. Code `CONFIG_INVALID`. */
export class ConfigError extends AuthError {
  /** Every problem found, in variable order. */
  readonly issues: readonly ConfigIssue[];

  /**
   * @param issues every problem found
   * @param context what was being attempted, e.g. `use scope "predict"`
   * @param advice a line after the list: how to try the sandbox first, when nothing at all is configured
   */
  constructor(issues: readonly ConfigIssue[], context = 'configure the slicer client', advice?: string) {
    const lines = issues.map((issue) => {
      const option = issue.option && `option ${issue.option}`; // given as an option: "from option baseUrl", named once
      const notes = issue.source === 'option'
        ? `from ${option || 'option'}`
        : [issue.source && `from ${issue.source}`, option].filter(Boolean).join('; ');
      return `  - ${issue.key}: ${issue.message}${notes ? ` (${notes})` : ''}`;
    }).join('\n');
    super(
      ErrorCode.CONFIG_INVALID,
      `Cannot ${context}: fix these settings (environment, .env or client options):\n${lines}${advice ? `\n${advice}` : ''}`,
    );
    this.issues = issues;
  }
}

/**
 * A secret (the password to the auth URL, or a token to a service URL) would
 * go over plain http to a non-loopback host and the user did not opt in.
 * Code `INSECURE_AUTH_URL` (the stable code, kept for both kinds of URL).
 */
export class InsecureUrlError extends AuthError {
  /**
   * @param host the host the secret would have been sent to
   * @param variable the setting naming that URL, e.g. `SLICER_AUTH_URL`, or `SLICER_ALLOWED_ORIGINS` listing its origin
   */
  constructor(host: string, variable = 'SLICER_AUTH_URL') {
    const fix = variable === 'SLICER_ALLOWED_ORIGINS' ? `list the origin with https in ${variable}` : `use an https ${variable}`;
    super(
      ErrorCode.INSECURE_AUTH_URL,
      `Refusing to send ${variable === 'SLICER_AUTH_URL' ? 'the password' : 'an access token'} over plain http to "${host}": ` +
        `${fix}, or set SLICER_ALLOW_INSECURE_HTTP=1 (option allowInsecureHttp) if you accept the risk`,
    );
  }
}

/** @deprecated renamed {@link InsecureUrlError} (it is thrown for service URLs too); kept until the next minor version */
export const InsecureAuthUrlError = InsecureUrlError;
/** @deprecated renamed {@link InsecureUrlError} */
export type InsecureAuthUrlError = InsecureUrlError;

/** Fields shared by errors that come from an HTTP answer. */
interface HttpFailure {
  /** HTTP status of the last answer, when there was one. */
  readonly status?: number | undefined;
  /** The last `Response`, kept non-enumerable so it never shows up in logs. */
  readonly response?: Response | undefined;
}

/** Sets the fields that have a value (one absent stays off the error: a log lists no `undefined`) and keeps the answer unlisted. */
function setDetails(error: Error, fields: Record<string, string | number | undefined>, response: Response | undefined): void {
  Object.assign(error, Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)));
  Object.defineProperty(error, 'response', { value: response, enumerable: false });
}

/** The token endpoint refused the grant (4xx). Code `TOKEN_REQUEST_REJECTED`. */
export class TokenRequestRejectedError extends AuthError implements HttpFailure {
  /** HTTP status of the refusal. */
  readonly status: number;
  /** OAuth `error` (RFC 6749 §5.2), when the server sent one. */
  declare readonly error: string | undefined;
  /** OAuth `error_description`, redacted, when the server sent one. */
  declare readonly error_description: string | undefined;
  declare readonly response: Response | undefined;

  /**
   * @param message the full, redacted message
   * @param details status, OAuth fields and the raw response
   */
  constructor(
    message: string,
    details: { status: number; error?: string | undefined; error_description?: string | undefined; response?: Response },
  ) {
    super(ErrorCode.TOKEN_REQUEST_REJECTED, message);
    this.status = details.status;
    setDetails(this, { error: details.error, error_description: details.error_description }, details.response);
  }
}

/** The token endpoint was unreachable, timed out or answered 5xx after bounded retries. Code `TOKEN_ENDPOINT_UNAVAILABLE`. */
export class TokenEndpointUnavailableError extends AuthError implements HttpFailure {
  /** HTTP status of the last answer, if any arrived. */
  declare readonly status: number | undefined;
  /** OAuth `error` of the last answer (redacted), when it carried one. */
  declare readonly error: string | undefined;
  /** OAuth `error_description` of the last answer (redacted), when it carried one. */
  declare readonly error_description: string | undefined;
  declare readonly response: Response | undefined;

  /**
   * @param message the full, redacted message
   * @param details last status, OAuth fields and response, and a secret-free cause
   */
  constructor(
    message: string,
    details: { status?: number; response?: Response; cause?: Error; error?: string | undefined; error_description?: string | undefined } =
      {},
  ) {
    super(ErrorCode.TOKEN_ENDPOINT_UNAVAILABLE, message, details.cause ? { cause: details.cause } : undefined);
    setDetails(this, { status: details.status, error: details.error, error_description: details.error_description }, details.response);
  }
}

/** The token endpoint answered 3xx; the redirect is not followed. Code `TOKEN_ENDPOINT_REDIRECT`. */
export class TokenEndpointRedirectError extends AuthError {
  /** The 3xx status. */
  readonly status: number;
  /** Where it pointed: origin and path, without query string. */
  declare readonly location: string | undefined;

  /**
   * @param message the full, redacted message
   * @param details status and target (the response itself is not kept: its headers may carry secrets)
   */
  constructor(message: string, details: { status: number; location: string | undefined }) {
    super(ErrorCode.TOKEN_ENDPOINT_REDIRECT, message);
    this.status = details.status;
    if (details.location !== undefined) this.location = details.location;
  }
}

/** A 2xx token response that is not JSON or fails the contract's schema. Code `TOKEN_RESPONSE_INVALID`. */
export class TokenResponseError extends AuthError {
  /** Paths of the fields at fault (never their values), e.g. `["expires_in"]`. */
  readonly paths: readonly string[];

  /**
   * @param message the full, redacted message
   * @param paths the fields at fault
   */
  constructor(message: string, paths: readonly string[] = []) {
    super(ErrorCode.TOKEN_RESPONSE_INVALID, message);
    this.paths = paths;
  }
}

/** A service answered 401 to a request even after one retry with a fresh token. Code `UNAUTHORIZED`. */
export class UnauthorizedError extends AuthError implements HttpFailure {
  /** Always 401. */
  readonly status = 401;
  declare readonly response: Response | undefined;

  /**
   * @param message the full message
   * @param response the second 401 response
   */
  constructor(message: string, response?: Response) {
    super(ErrorCode.UNAUTHORIZED, message);
    setDetails(this, {}, response);
  }
}

/** A service answered 401 to a configured permanent token. Code `PERMANENT_TOKEN_REJECTED`. */
export class PermanentTokenRejectedError extends AuthError implements HttpFailure {
  /** Always 401. */
  readonly status = 401;
  declare readonly response: Response | undefined;

  /**
   * @param variable the variable that holds the refused token, e.g. `SLICER_STATIC_TOKEN`
   * @param response the 401 response
   */
  constructor(variable: string, response?: Response) {
    super(
      ErrorCode.PERMANENT_TOKEN_REJECTED,
      `The permanent token in ${variable} was refused (401): it is invalid or revoked. ` +
        "Create a new one in the authorization service's UI, or unset it to use the password grant",
    );
    setDetails(this, {}, response);
  }
}

/** A call on a client after its `close()`. Code `CLIENT_CLOSED`. */
export class ClientClosedError extends AuthError {
  /** @param call what was called, e.g. `getToken` */
  constructor(call: string) {
    super(ErrorCode.CLIENT_CLOSED, `Cannot call ${call}: this client was closed; create a new one with createAuthClient()`);
  }
}

/** A `minValidity` no token of the service can meet. Code `MIN_VALIDITY_UNREACHABLE`. */
export class MinValidityUnreachableError extends AuthError {
  /** The validity asked for, seconds. */
  readonly minValidity: number;
  /** The lifetime of the service's tokens, seconds. */
  readonly lifetime: number;

  /**
   * @param scope the scope
   * @param minValidity what was asked, seconds
   * @param lifetime what the service gives, seconds
   */
  constructor(scope: string, minValidity: number, lifetime: number) {
    super(
      ErrorCode.MIN_VALIDITY_UNREACHABLE,
      `Ask for a minValidity of at most ${lifetime} s for scope "${scope}": the service issues tokens valid ${lifetime} s, ` +
        `so no token can be valid ${minValidity} s more`,
    );
    this.minValidity = minValidity;
    this.lifetime = lifetime;
  }
}

/**
 * Tells whether a value is one of this module's errors.
 *
 * @param value anything caught
 * @returns true for an {@link AuthError} (any subclass)
 * @example
 * ```ts
 * if (isAuthError(err) && err.code === ErrorCode.CONFIG_INVALID) process.exit(2);
 * ```
 */
export function isAuthError(value: unknown): value is AuthError {
  return value instanceof AuthError;
}
