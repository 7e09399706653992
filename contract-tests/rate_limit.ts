/**
 * A rate limit in front of the service under test. The contract says nothing
 * of rate limits, and a staging gateway may have one: a 429, or a 503 with
 * `Retry-After`, is no answer of the contract. The suite waits as asked and
 * sends again, so that such an answer is neither a failure of the clause the
 * call was checking nor (a refusal probe) a pass it did not earn.
 */
import { retryAfterMs } from '../src/token_source/retry_after.ts';

/** How long one call may wait in all for a rate limit to pass. */
export const RATE_LIMIT_MS = 120_000;

/** The first wait after a 429 without `Retry-After`; each further one doubles. */
const FIRST_WAIT_MS = 1_000;

/**
 * How long to wait before sending again, when an answer says to.
 *
 * @param status the answer's status
 * @param retryAfter its `Retry-After` header: seconds, or an HTTP date
 * @param attempt how many times this call was already answered so (0 the first time)
 * @param wallNow the wall clock, ms since the epoch, for a date
 * @returns the wait in ms, or undefined when the answer is not a rate limit
 */
export function rateLimitWait(status: number, retryAfter: string | undefined, attempt: number, wallNow: number): number | undefined {
  if (status !== 429 && !(status === 503 && retryAfter?.trim())) return undefined;
  return retryAfterMs(retryAfter, wallNow) ?? FIRST_WAIT_MS * 2 ** attempt;
}
