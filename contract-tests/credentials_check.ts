/**
 * A live run's check of its credentials before any test: one password grant
 * for the slicing service, never retried. When the token endpoint refuses the
 * user or the password (`refusesCredentials`: OAuth `invalid_grant` or
 * `invalid_client`, a locked account included, or a 400, 401 or 403 in words
 * of its own, as the contract names no error format and the documented
 * request has nothing else to authenticate), the run stops there: each test
 * would send them again, and refusals in a row can lock the account. A 401 that asks for a Bearer token (RFC 6750) is a
 * service's, not a token endpoint's: SLICER_AUTH_URL is wrong, which the tests
 * report. So is any other answer (a token, a rate limit, another refusal, a
 * failing or missing endpoint), clause by clause.
 */
import { systemClock } from '../src/clock.ts';
import { globalFetch } from '../src/fetch.ts';
import type { Config } from '../src/settings/config.ts';
import { refusesCredentials } from '../src/token_source/refusal.ts';
import { createTokenSource } from '../src/token_source/token_source.ts';

/**
 * Sends the configured credentials once, and stops the run when they are refused.
 *
 * @param config the live target's configuration
 * @throws Error naming the refusal (redacted) and the variables to check, when the credentials are refused
 */
export async function checkCredentials(config: Config): Promise<void> {
  const { credentials, serviceId } = config;
  if (!credentials) return;
  const scope = `service_id=${serviceId}`;
  try {
    await createTokenSource({ ...credentials, fetch: globalFetch, clock: systemClock, random: Math.random, retries: 0 })(scope);
  } catch (error) {
    if (!refusesCredentials(error)) return;
    throw new Error(
      `The token endpoint refused the configured credentials, so no test was run: ${error.message}. ` +
        'Each test would have sent them again, and refusals in a row can lock the account.',
    );
  }
}
