/**
 * What a refused token request means (RFC 6749 §5.2, and the statuses an
 * address answers when it is no token endpoint): whether the address, the
 * credentials or a service is at fault, and the fix its message ends with.
 * `grant_response.ts` and `token_source.ts` word the messages; the doctor
 * and the contract suite tell the same causes apart.
 */
import { TokenRequestRejectedError } from '../errors.ts';
import { SERVICES } from '../settings/services.ts';
import { SETTINGS } from '../settings/settings.ts';

/** A refused token request: its status and OAuth fields (RFC 6749 §5.2). */
export interface Refusal {
  readonly status: number;
  readonly error?: string | undefined;
  readonly error_description?: string | undefined;
}

/** The OAuth errors (RFC 6749 §5.2) that refuse the user or the password: asking again with them cannot succeed. */
export const CREDENTIALS_REFUSED: readonly (string | undefined)[] = ['invalid_grant', 'invalid_client'];

/** Where the username and the password are set, for the fix of a refusal that may be theirs. */
const CREDENTIALS = `${SETTINGS.username.env} and ${SETTINGS.password.env}`;

/** The fix of a 401 or 403 without OAuth fields, which the credentials or the address may cause (see {@link isUnexplained}). */
const UNEXPLAINED_FIX = `the answer carries no OAuth error: check ${CREDENTIALS}, and that SLICER_AUTH_URL is the ` +
  "authorization service's base address, not a service's or a proxy's";

/** What to do about a token endpoint that limits how often it is asked (429); the doctor's fix too. */
export const RATE_LIMITED_FIX = 'the token endpoint limits how often it is asked (429): wait as long as it asks, then run again; ' +
  `processes that use this account can share tokens (${SETTINGS.cacheFile.env} or ${SETTINGS.storeUrl.env})`;

/** Statuses of an address that takes no token request (not found, method not allowed, gone). */
const NOT_AN_ENDPOINT = [404, 405, 410];

/**
 * Whether a refusal says that nothing takes token requests at the address (a
 * wrong SLICER_AUTH_URL) rather than that the request was refused: such a
 * status without OAuth fields (a service that answers 404 for an unknown user
 * says so in them).
 *
 * @param refusal the refusal's status and OAuth fields
 * @returns true for a wrong address
 */
export function isMisaddressed(refusal: Refusal): boolean {
  return NOT_AN_ENDPOINT.includes(refusal.status) && !refusal.error && !refusal.error_description;
}

/** Statuses by which a protected address refuses a request without credentials: unauthorised, forbidden. */
const PROTECTED = [401, 403];

/**
 * Whether a refusal may come from something other than a token endpoint: a 401 or 403 without OAuth fields, as a
 * service or a proxy in front of one answers a request without its credentials. A token endpoint may answer wrong
 * credentials so too (the contract shows no error format), so both causes are told.
 *
 * @param refusal the refusal's status and OAuth fields
 * @returns true for such a refusal
 */
export function isUnexplained(refusal: Refusal): boolean {
  return PROTECTED.includes(refusal.status) && !refusal.error && !refusal.error_description;
}

/** A `WWW-Authenticate` header with a Bearer challenge among its challenges (RFC 6750 §3). */
const BEARER_CHALLENGE = /(?:^|,)\s*bearer(?:\s|,|$)/i;

/**
 * Whether a refusal is a service's: a 401 that asks for a Bearer token (`WWW-Authenticate: Bearer`), as a protected
 * resource does and a token endpoint has no reason to. SLICER_AUTH_URL then names a service, whatever the body says.
 *
 * @param refusal the refusal's status and, when kept, its answer
 * @returns true for a service's refusal
 */
export function isServiceRefusal(refusal: { readonly status: number; readonly response?: Response | undefined }): boolean {
  // Stryker disable next-line StringLiteral: without the header, any text but a Bearer challenge reads the same
  return refusal.status === 401 && BEARER_CHALLENGE.test(refusal.response?.headers.get('www-authenticate') ?? '');
}

/** The OAuth errors (RFC 6749 §5.2) that name a cause other than the user or the password. */
const OTHER_CAUSES: readonly (string | undefined)[] = ['invalid_request', 'unauthorized_client', 'unsupported_grant_type', 'invalid_scope'];

/** Statuses by which a token endpoint may refuse a login in words of its own: bad request, unauthorised, forbidden. */
const LOGIN_REFUSED = [400, 401, 403];

/**
 * Whether a failure may be the token endpoint refusing the user or the password, which asking again cannot change
 * and, repeated, can lock the account: an OAuth error that says so (RFC 6749 §5.2); or a 400, 401 or 403 whose OAuth
 * error, if any, names no other cause, since the contract names no error format and the documented request has
 * nothing else to authenticate. A 401 with a Bearer challenge is a service's ({@link isServiceRefusal}).
 *
 * @param error the failure
 * @returns true when a request with the same credentials would be refused the same
 */
export function refusesCredentials(error: unknown): error is TokenRequestRejectedError {
  if (!(error instanceof TokenRequestRejectedError) || OTHER_CAUSES.includes(error.error)) return false;
  return CREDENTIALS_REFUSED.includes(error.error) || (LOGIN_REFUSED.includes(error.status) && !isServiceRefusal(error));
}

/**
 * The fix a refused token request's message ends with, where its answer tells it: the credentials' (a 401 or 403
 * without OAuth fields, or an OAuth error refusing them, RFC 6749 §5.2), or the service id's (`invalid_scope`).
 *
 * @param refusal the answer's status and OAuth fields
 * @returns `; ` and the fix, or an empty text
 */
export function refusalFix(refusal: Refusal): string {
  if (isUnexplained(refusal)) return `; ${UNEXPLAINED_FIX}`;
  if (CREDENTIALS_REFUSED.includes(refusal.error)) return `; the credentials were refused: check ${CREDENTIALS}`;
  if (refusal.error !== 'invalid_scope') return '';
  return `; the scope was refused: check the service id it names (${SERVICES.map((service) => service.id.env).join(' or ')}), ` +
    'and that this user may use that service';
}

/**
 * The fix a failed token request's message ends with, where its last answer tells it: a refusal's (above), else a rate
 * limit's for a 429. The doctor leaves it out of its reason: its fix line gives its own.
 *
 * @param answer the last answer's status, when one came, and OAuth fields
 * @returns `; ` and the fix, or an empty text
 */
export function answerFix(answer: { readonly status?: number | undefined } & Omit<Refusal, 'status'>): string {
  const { status } = answer;
  // Stryker disable next-line ConditionalExpression,StringLiteral: without a status no fix applies either way; the test is for the types
  if (status === undefined) return '';
  return refusalFix({ ...answer, status }) || (status === 429 ? `; ${RATE_LIMITED_FIX}` : '');
}
