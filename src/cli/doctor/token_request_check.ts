/**
 * The doctor's token request: one password grant per scope, never retried (so
 * an account is not locked), checked against the contract (4.1), plus the
 * clock skew against the server's `Date`.
 */
import { type Check, fail, ok, type Outcome, serviceSettings, skip, warn } from './check.ts';
import type { Clock } from '../../clock.ts';
import { ErrorCode, isAuthError, TokenRequestRejectedError } from '../../errors.ts';
import { redactor } from '../../redact.ts';
import { DOCUMENTED_EXPIRES_IN } from '../../schemas.ts';
import type { Config } from '../../settings/config.ts';
import { DEFAULT_SERVICE, type Service } from '../../settings/services.ts';
import { isServiceIdAlone, processGrantResponse } from '../../token_source/grant_response.ts';
import { networkCause, networkFix } from '../../token_source/network_cause.ts';
import {
  answerFix,
  isMisaddressed,
  isServiceRefusal,
  isUnexplained,
  RATE_LIMITED_FIX,
  refusesCredentials,
} from '../../token_source/refusal.ts';
import { sendGrantRequest } from '../../token_source/token_source.ts';

/** What a fix that sends the password again adds: the doctor's one try does not lock the account, repeated ones may. */
const LOCKED = 'after several failures the account may be locked for a while (the doctor tries once)';

/** A clock difference above this is worth a warning: expiry is judged on the server's clock. */
const MAX_SKEW_MS = 60_000;

/**
 * The token request of one scope.
 *
 * @param scope the scope
 * @returns the check; it stores the grant in `ctx.grants` for the service check
 */
export function tokenRequestCheck(service: Service): Check {
  return {
    id: `token-request-${service.name}`,
    name: `token request (${service.name})`,
    async run(ctx) {
      const config = ctx.config;
      // Without a configuration only the default scope, which every use needs, gets a line.
      if (!config) return service === DEFAULT_SERVICE ? skip('the configuration failed') : undefined;
      const { serviceId, token } = serviceSettings(config, service);
      if (!serviceId) return undefined; // the scope is not configured: no line
      if (!config.credentials) return skip(token ? `covered by ${service.staticToken.env}` : 'no credentials');
      if (!config.authUrl || ctx.failed.has('auth-dns') || ctx.failed.has('auth-tcp')) {
        return skip('the authorization service cannot be reached');
      }
      if (ctx.unanswered.has('auth-token-endpoint')) return skip('the token endpoint does not answer, so the password was not sent');
      if (ctx.credentialsRefusedFor) {
        return skip(`the credentials were refused for ${ctx.credentialsRefusedFor}, so they were not sent again (the account could lock)`);
      }
      const scopeString = `service_id=${serviceId}`;
      const outcome = await tokenRequest(config, service, scopeString, ctx.clock);
      if (outcome.grant) ctx.grants.set(scopeString, outcome.grant);
      if (outcome.credentialsRefused) ctx.credentialsRefusedFor = service.name;
      return outcome.result;
    },
  };
}

/** One password grant and what it says. */
async function tokenRequest(config: Config, service: Service, scope: string, clock: Clock) {
  const credentials = config.credentials as NonNullable<Config['credentials']>;
  const started = clock.now();
  /** The password removed from every message of the request and of its answer. */
  const clean = redactor([credentials.password]);
  try {
    const response = await sendGrantRequest(
      {
        ...credentials,
        fetch: (i, init) => fetch(i, init),
        clock,
        random: Math.random,
        retries: 0,
      },
      scope,
      clean,
    );
    const raw = await response.clone().text();
    const date = Date.parse(response.headers.get('date') ?? '');
    const grant = await processGrantResponse(response, scope, started, clean);
    const ms = Math.round(clock.now() - started);
    const reason = `Bearer token for ${scope}, valid ${Math.round(grant.lifetime / 1000)} s, ${ms} ms`;
    const skew = Number.isNaN(date) ? 0 : clock.wallNow() - date;
    let result: Outcome = ok(reason);
    const body = JSON.parse(raw) as { token_type?: unknown; expires_in?: unknown; scope?: unknown };
    const type = response.headers.get('content-type') ?? '';
    const deviations = [
      // The client takes the type in any case (RFC 6749 §5.1); the contract writes it `Bearer`.
      body.token_type === 'Bearer' ? '' : `token_type is ${JSON.stringify(body.token_type)}, documented "Bearer"`,
      typeof body.expires_in === 'string'
        ? ''
        : body.expires_in === undefined || body.expires_in === null
        ? `expires_in is left out, taken as the documented ${DOCUMENTED_EXPIRES_IN} s`
        : 'expires_in is a JSON number, documented as a string',
      body.scope === scope
        ? ''
        : typeof body.scope === 'string' && isServiceIdAlone(body.scope, scope)
        ? 'scope is the service id alone, documented as the requested scope (service_id=<id>)'
        : `scope is ${body.scope === undefined ? 'left out' : body.scope === null ? 'null' : 'a list'}, documented as the requested scope`,
      type.toLowerCase().includes('json') ? '' : `the answer's content type is ${type ? `"${type}"` : 'not given'}, not JSON's`,
    ].filter(Boolean);
    if (deviations.length > 0) {
      result = warn(`${reason}; ${deviations.join('; ')}`, 'nothing to do here: the client accepts this; tell the service owners');
    } else if (Math.abs(skew) > MAX_SKEW_MS) {
      result = warn(`${reason}; this machine's clock is ${Math.round(skew / 1000)} s off the server's`, 'synchronise the clock (NTP)');
    }
    return { grant, result };
  } catch (error) {
    if (!isAuthError(error)) throw error;
    const refusal = error instanceof TokenRequestRejectedError ? error : undefined;
    // A 429 is a rate limit, unless it says the grant is refused (a locked account, which the credentials' fix covers).
    /** The status and OAuth fields of the errors that carry them (a refusal, or an endpoint unavailable). */
    const answer = error as Parameters<typeof answerFix>[0];
    const limited = answer.status === 429 && refusal?.error !== 'invalid_grant';
    // The reason without the fix the message ends with: the fix line says it, for this set-up.
    const reason = error.message.replace(answerFix(answer), '');
    if (limited) return { grant: undefined, result: fail(reason, RATE_LIMITED_FIX) };
    const fixes: Partial<Record<string, string>> = {
      [ErrorCode.TOKEN_REQUEST_REJECTED]: refusal?.error === 'invalid_scope'
        ? `${service.id.env} is not a service this authorization service knows: correct it`
        : refusal && isMisaddressed(refusal)
        ? "correct SLICER_AUTH_URL: the authorization service's base address, to which /oauth2/token/ is appended"
        : refusal && isServiceRefusal(refusal)
        ? "correct SLICER_AUTH_URL: the authorization service's base address, not a service's (SLICER_BASE_URL, " +
          'SLICER_PREDICT_BASE_URL or another)'
        : refusal && isUnexplained(refusal)
        ? "check SLICER_USERNAME and SLICER_PASSWORD, and that SLICER_AUTH_URL is the authorization service's base address " +
          `(not a service's or a proxy's); ${LOCKED}`
        : `check SLICER_USERNAME and SLICER_PASSWORD; ${LOCKED}`,
      [ErrorCode.TOKEN_RESPONSE_INVALID]:
        "SLICER_AUTH_URL must be the authorization service's base address: its /oauth2/token/ answered something else",
      [ErrorCode.TOKEN_ENDPOINT_REDIRECT]: 'use the exact https address of the authorization service in SLICER_AUTH_URL',
      [ErrorCode.TOKEN_ENDPOINT_UNAVAILABLE]: networkFix(
        networkCause(error.cause),
        'check that the authorization service is up and reachable, then run again',
      ),
    };
    return {
      grant: undefined,
      result: fail(reason, fixes[error.code] ?? 'see the reason above'),
      credentialsRefused: refusesCredentials(error),
    };
  }
}
