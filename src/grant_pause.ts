/**
 * A pause after a failed token request, so that callers who go on calling
 * (a loop over jobs, a retry of their own) do not send the token endpoint a
 * request each: after the n-th failure in a row for a scope, calls for it
 * within 2^(n-1) s (at most {@link MAX_PAUSE_MS}) get that failure again at
 * once, without a request. A wrong password is not tried a thousand times a
 * second, and a service that is down is not flooded. A grant ends the pause.
 * The same schedule ({@link pauseAfter}) pauses the request engine's token
 * replacements after a fresh token's 401.
 */
import { AuthError } from './errors.ts';
import type { GrantFetcher } from './grant.ts';

/** The pause after the first failure in a row; each further failure doubles it. */
const FIRST_PAUSE_MS = 1_000;
/** The longest pause. */
const MAX_PAUSE_MS = 30_000;

/**
 * The pause after some failures in a row: {@link FIRST_PAUSE_MS}, doubled for each further one, at most {@link MAX_PAUSE_MS}.
 *
 * @param failures failures in a row, at least 1
 * @returns the pause, ms
 */
export const pauseAfter = (failures: number): number => Math.min(MAX_PAUSE_MS, FIRST_PAUSE_MS * 2 ** (failures - 1));

/** What {@link pauseAfterFailure} needs. */
export interface GrantPauseOptions {
  /** Monotonic clock, ms. */
  now: () => number;
  /** Where warnings go (already free of secrets). */
  warn: (message: string) => void;
}

interface Failure {
  readonly error: unknown;
  /** Failures in a row. */
  readonly count: number;
  /** No request before this instant. */
  readonly until: number;
  /** Whether a call was refused in this pause (and the warning given). */
  told: boolean;
}

/**
 * Wraps a grant fetcher with a pause per scope after each failure.
 *
 * @param fetchGrant the fetcher that sends token requests
 * @param options clock and warning sink
 * @returns the same fetcher, pausing after failures
 */
export function pauseAfterFailure(fetchGrant: GrantFetcher, options: GrantPauseOptions): GrantFetcher {
  const failures = new Map<string, Failure>();
  return async (scope, replacing) => {
    const failure = failures.get(scope);
    const now = options.now();
    if (failure && now < failure.until) {
      if (!failure.told) {
        const code = failure.error instanceof AuthError ? failure.error.code : 'UNKNOWN';
        const seconds = Math.ceil((failure.until - now) / 1000);
        options.warn(
          `The last token request for scope "${scope}" failed (${code}); giving that failure again for ${seconds} s without a new request`,
        );
        failure.told = true;
      }
      throw failure.error;
    }
    try {
      const grant = await fetchGrant(scope, replacing);
      failures.delete(scope);
      return grant;
    } catch (error) {
      const count = (failure?.count ?? 0) + 1;
      failures.set(scope, { error, count, until: options.now() + pauseAfter(count), told: false });
      throw error;
    }
  };
}
