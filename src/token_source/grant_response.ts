/**
 * Processing the token endpoint's answer (contract 4.1): a redirect, a
 * refusal with its OAuth fields (RFC 6749 §5.2), or a token response checked
 * against the schema and turned into a {@link Grant}; and the error of an
 * answer still failing after the retries (408, 429, 5xx). Sending is
 * `token_source.ts`; nothing downstream sees raw JSON. Messages never hold a
 * secret: they are redacted by the known ones, and a schema failure lists
 * paths only (valibot's own messages would quote the token).
 */
import * as v from 'valibot';
import { TokenEndpointRedirectError, TokenEndpointUnavailableError, TokenRequestRejectedError, TokenResponseError } from '../errors.ts';
import type { Grant } from '../grant.ts';
import { redact, type Redactor } from '../redact.ts';
import { answerFix, isMisaddressed, isServiceRefusal, refusalFix } from './refusal.ts';
import { OAuthErrorSchema, TokenResponseSchema } from '../schemas.ts';

/**
 * The longest validity taken from an answer, in seconds: a year. A longer one (up to `1e308`, whose milliseconds are
 * Infinity) is used as a year's, so that every expiry stays a date, in memory and in a store.
 */
const MAX_EXPIRES_IN_S = 365 * 24 * 3600;

/** The fix of an answer that is no token response as contract 4.1 describes: the address, else the service. */
const NOT_A_TOKEN_RESPONSE = "; check SLICER_AUTH_URL (the authorization service's base address), else tell that service's owners";

/** The longest part of an answer's own words put in a message. */
const SAID_CHARS = 160;

/** How deep into an answer's JSON its words are looked for. */
const SAID_DEPTH = 8;

/**
 * The words of a JSON answer: each string, number or boolean in it, after the name it stands under
 * (`{"detail":"Bad credentials"}` is `detail: Bad credentials`), unescaped, so that a secret is redacted in them as sent.
 */
function wordsOf(value: unknown, name: string | undefined, depth = 0): string[] {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    return [name === undefined ? String(value) : `${name}: ${value}`];
  }
  // What is left of JSON is null, an array or an object.
  if (value === null || depth === SAID_DEPTH) return [];
  return Array.isArray(value)
    ? value.flatMap((item) => wordsOf(item, name, depth + 1))
    : Object.entries(value as Record<string, unknown>).flatMap(([key, item]) => wordsOf(item, key, depth + 1));
}

/**
 * What a failing answer says (RFC 6749 §5.2 or not): its OAuth `error` and `error_description`, redacted, and the words
 * for a message: those fields, else the answer's own words (`detail: Bad credentials`, as a server that does not follow
 * §5.2 answers), redacted, on one line, cut at {@link SAID_CHARS} characters; nothing for an empty body or an HTML page.
 *
 * @param response the answer
 * @param clean removes the known secrets from a text
 * @returns the OAuth fields (empty when it has none) and the detail for a message ("" when there is none)
 */
async function failureWords(response: Response, clean: Redactor) {
  const text = await response.text(); // read in full already (token_source.ts): this cannot fail
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON: no OAuth fields (the schema refuses undefined), and the text is the words
  }
  const oauth = oauthOf(json, clean);
  const html = text.trimStart().startsWith('<') || (response.headers.get('content-type')?.includes('html') ?? false);
  // Redacted before its spaces are touched: a secret may hold them.
  const line = clean(json === undefined ? text : wordsOf(json, undefined).join('; ')).replace(/[\s\p{Cc}]+/gu, ' ').trim();
  const said = line.length > SAID_CHARS ? `${line.slice(0, SAID_CHARS)}…` : line;
  return { oauth, detail: oauthDetail(oauth) || (said && !html ? `(said: ${said})` : '') };
}

/** The OAuth fields as a message says them: `invalid_grant: Bad credentials`. */
const oauthDetail = (oauth: ReturnType<typeof oauthOf>) => [oauth.error, oauth.error_description].filter(Boolean).join(': ');

/** The OAuth fields of a parsed body, redacted (RFC 6749 §5.2); empty when it has none. */
function oauthOf(json: unknown, clean: Redactor) {
  const body = v.safeParse(OAuthErrorSchema, json);
  if (!body.success) return {};
  const field = (value: string | undefined) => (value === undefined ? undefined : clean(value));
  return { error: field(body.output.error), error_description: field(body.output.error_description) };
}

/**
 * The error for a refused token request: its status and OAuth fields, and the fix where its cause is known: the
 * address (nothing takes token requests there, or a service answered), the credentials (refused, or a 401 or 403
 * that may be theirs), or the service id in the scope.
 */
function refused(
  where: string,
  response: Response,
  oauth: ReturnType<typeof oauthOf>,
  detail = oauthDetail(oauth),
): TokenRequestRejectedError {
  const refusal = { status: response.status, ...oauth };
  // SLICER_AUTH_URL given with the first part of the endpoint's path (`https://auth.example/oauth2`), as some docs write it.
  const doubled = URL.canParse(response.url) && new URL(response.url).pathname.endsWith('/oauth2/oauth2/token/');
  const hint = isMisaddressed(refusal) && doubled
    ? '; SLICER_AUTH_URL ends in /oauth2, and the client appends /oauth2/token/ to it: remove the /oauth2'
    : isMisaddressed(refusal)
    ? "; nothing takes token requests there: check SLICER_AUTH_URL, the authorization service's base address " +
      '(the token endpoint is {SLICER_AUTH_URL}/oauth2/token/)'
    : isServiceRefusal({ status: response.status, response })
    ? "; the answer asks for a Bearer token, as a service does: SLICER_AUTH_URL must be the authorization service's " +
      "base address, not a service's"
    : refusalFix(refusal);
  return new TokenRequestRejectedError(
    `${where}: the token endpoint answered ${response.status}${detail ? ` ${detail}` : ''}${hint}`,
    { ...refusal, response },
  );
}

/**
 * The error of the answer a token request ended with after its retries (408, 429, 5xx: statuses worth asking again):
 * its status and words, how often it was asked, and the fix where the answer tells one. A 4xx carrying an OAuth error
 * (429 `invalid_grant`, for a locked account) is a refusal, whatever its status; the rest, the endpoint unavailable.
 *
 * @param response the last answer
 * @param where what failed, for the message: `Cannot get a token for scope "…" from <url>`
 * @param tried how often it was asked again, or why it was not (` after 2 retries`, `; it asks for …`)
 * @param clean removes the known secrets from the answer's words
 * @returns the error to throw
 */
export async function lastAnswerError(
  response: Response,
  where: string,
  tried: string,
  clean: Redactor,
): Promise<TokenRequestRejectedError | TokenEndpointUnavailableError> {
  const status = `${response.status} ${response.statusText}`.trim();
  const { oauth, detail } = await failureWords(response, clean);
  const fix = answerFix({ status: response.status, ...oauth });
  if (oauth.error && response.status < 500) {
    return new TokenRequestRejectedError(`${where}: the token endpoint answered ${status} ${detail}${tried}${fix}`, {
      status: response.status,
      ...oauth,
      response,
    });
  }
  return new TokenEndpointUnavailableError(`${where}: the token endpoint answered ${status}${detail ? ` ${detail}` : ''}${tried}${fix}`, {
    status: response.status,
    response,
    ...oauth,
  });
}

/**
 * Validates a token endpoint answer and turns it into a grant.
 *
 * @param response the answer (2xx or 4xx)
 * @param scope the scope that was asked for; the answer must echo it (or leave it out)
 * @param sentAt monotonic instant the request was sent; the lifetime counts from it
 * @param clean removes the known secrets from any message
 * @returns the grant
 * @throws {TokenEndpointRedirectError} `TOKEN_ENDPOINT_REDIRECT` for a 3xx
 * @throws {TokenRequestRejectedError} `TOKEN_REQUEST_REJECTED` for a 4xx, or a 2xx that carries an OAuth error and no token
 * @throws {TokenResponseError} `TOKEN_RESPONSE_INVALID` for a 2xx that is not a valid token response
 */
export async function processGrantResponse(
  response: Response,
  scope: string,
  sentAt: number,
  clean: Redactor,
): Promise<Grant> {
  const where = `Cannot get a token for scope "${clean(scope)}"`;
  if (response.status >= 300 && response.status < 400) {
    // Never followed (see sendGrantRequest): the password would go wherever it points.
    const location = response.headers.get('location');
    const target = location ? new URL(location, response.url || 'http://invalid/') : undefined;
    const shown = target ? `${target.origin === 'http://invalid' ? '' : target.origin}${target.pathname}` : 'nowhere';
    throw new TokenEndpointRedirectError(
      `${where}: the token endpoint answered ${response.status}, a redirect to ${clean(shown)}; ` +
        'the password is sent to the configured endpoint only: check SLICER_AUTH_URL (https, exact path)',
      // No `response` kept: its Location header may carry anything, and inspect(showHidden) would show it.
      { status: response.status, location: target ? clean(shown) : undefined },
    );
  }
  if (!response.ok) {
    const { oauth, detail } = await failureWords(response, clean);
    throw refused(where, response, oauth, detail);
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
    throw new TokenResponseError(`${where}: the token response is not a JSON object${NOT_A_TOKEN_RESPONSE}`, ['(body)']);
  }
  // A refusal answered with a 2xx, as some servers send one: an OAuth error and no token.
  const oauth = oauthOf(json, clean);
  if (oauth.error && !('access_token' in json)) throw refused(where, response, oauth);
  const result = v.safeParse(TokenResponseSchema, json);
  if (!result.success) {
    // Stryker disable next-line StringLiteral: unreachable fallback, every issue below an object checked above has a path
    const problems = result.issues.map((issue) => ({ path: v.getDotPath(issue) ?? '(body)', message: issue.message }));
    throw new TokenResponseError(
      `${where}: the token response is malformed: ${problems.map((p) => `${p.path} ${p.message}`).join('; ')}${NOT_A_TOKEN_RESPONSE}`,
      problems.map((p) => p.path),
    );
  }
  const grant = result.output;
  // Stryker disable next-line Regex: splitting on single whitespace only adds empty names, and no requested scope is empty
  if (typeof grant.scope === 'string' && !grant.scope.split(/\s+/).some((name) => namesScope(name, scope))) {
    // Using a token for another service than asked is a security bug, not a nuisance. A scope left
    // out (or null) is the requested one (RFC 6749 §5.1); a space-delimited list (§3.3) must hold it.
    throw new TokenResponseError(
      `${where}: the token response is for scope "${clean(redact(grant.scope, [grant.access_token]))}", not the one requested; ` +
        "the token is not used: tell the authorization service's owners",
      ['scope'],
    );
  }
  const lifetime = Math.min(grant.expires_in, MAX_EXPIRES_IN_S) * 1000;
  return { token: grant.access_token, expiresAt: sentAt + lifetime, lifetime };
}

/**
 * Whether one name of an answered scope list is the requested scope: `service_id=<id>` as sent, or the service's
 * `<id>` alone, as some servers answer (it names the same service, and no other).
 */
function namesScope(name: string, requested: string): boolean {
  return name === requested || isServiceIdAlone(name, requested);
}

/**
 * Whether a scope name is the requested `service_id=<id>` written as its `<id>` alone.
 *
 * @param name the name answered
 * @param requested the scope requested
 * @returns true for the id alone
 */
export function isServiceIdAlone(name: string, requested: string): boolean {
  return `service_id=${name}` === requested;
}
