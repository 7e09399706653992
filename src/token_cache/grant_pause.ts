/**
 * A pause after a failed token request, so that callers who go on calling
 * (a loop over jobs, a retry of their own) do not send the token endpoint a
 * request each: after the n-th failure in a row for a scope, calls for it
 * within 2^(n-1) s (at most {@link MAX_PAUSE_MS}) get that failure again at
 * once, without a request. A wrong password is not tried a thousand times a
 * second, and a service that is down is not flooded. A failure whose answer
 * asks for a longer wait (`Retry-After`, at most {@link MAX_ASKED_MS}) pauses
 * that long. A refusal that may be of the credentials (`invalid_grant`,
 * `invalid_client`, or a 400, 401 or 403 in words of its own:
 * `refusesCredentials`) pauses {@link CREDENTIALS_PAUSE_MS} from the first:
 * the credentials of a client do not change, and a service that locks an
 * account after a few failed logins (the sandbox: 5 in 5 minutes) would lock
 * it for every process that uses it. A grant ends the pause.
 * The request engine pauses its token replacements after a fresh token's 401
 * with the same {@link Pause}.
 */
import { AuthError } from '../errors.ts';
import type { GrantFetcher } from '../grant.ts';
import { CREDENTIALS_REFUSED, refusesCredentials } from '../token_source/refusal.ts';
import { retryAfterMs } from '../token_source/retry_after.ts';

/** The pause after the first failure in a row; each further failure doubles it. */
const FIRST_PAUSE_MS = 1_000;
/** The longest pause. */
const MAX_PAUSE_MS = 30_000;
/** The longest pause an answer's `Retry-After` sets: one asking for more is held for this long. */
const MAX_ASKED_MS = 3_600_000;
/** The pause after a refusal of the credentials: four logins an hour at most. */
export const CREDENTIALS_PAUSE_MS = 900_000;

/** The pause after some failures in a row: {@link FIRST_PAUSE_MS}, doubled for each further one, at most {@link MAX_PAUSE_MS}. */
const pauseAfter = (failures: number): number => Math.min(MAX_PAUSE_MS, FIRST_PAUSE_MS * 2 ** (failures - 1));

/** One scope's failures in a row and the pause they set. */
export class Pause {
  readonly #now: () => number;
  #failures = 0;
  #until = Number.NEGATIVE_INFINITY;
  // Stryker disable next-line BooleanLiteral: a pause sets it afresh when it starts, and it is read only within one
  #told = false;

  /** @param now the monotonic clock, ms */
  constructor(now: () => number) {
    this.#now = now;
  }

  /**
   * Whether a pause holds now; the first time one holds for a call, `tell` gets its seconds left, rounded up.
   *
   * @param tell says that the pause holds, once per pause
   * @returns true while the pause holds
   */
  holds(tell: (seconds: number) => void): boolean {
    const left = this.#until - this.#now();
    if (left <= 0) return false;
    if (!this.#told) {
      this.#told = true;
      tell(Math.ceil(left / 1000));
    }
    return true;
  }

  /**
   * A failure: one more in a row, and the pause it sets starts.
   *
   * @param askedMs the wait its answer asked for, when it asked for one: the pause lasts at least that long
   */
  failed(askedMs = 0): void {
    this.#failures++;
    this.#until = this.#now() + Math.max(pauseAfter(this.#failures), Math.min(askedMs, MAX_ASKED_MS));
    this.#told = false;
  }

  /** A success: the count starts again, and no pause holds. */
  succeeded(): void {
    this.#failures = 0;
    this.#until = Number.NEGATIVE_INFINITY;
  }
}

/** What {@link pauseAfterFailure} needs. */
export interface GrantPauseOptions {
  /** Monotonic clock, ms. */
  now: () => number;
  /** Wall clock, ms since the epoch: a `Retry-After` may be a date. */
  wallNow: () => number;
  /** Where warnings go (already free of secrets). */
  warn: (message: string) => void;
  /**
   * The pauses, by scope, when several fetchers share them (the clients of one process with the same credentials).
   * @default this fetcher's own
   */
  failures?: PauseFailures | undefined;
}

/** By scope: the pause after a failed token request, and the failure given again while it holds. */
export type PauseFailures = Map<string, { readonly pause: Pause; readonly error: unknown }>;

/**
 * Wraps a grant fetcher with a pause per scope after each failure.
 *
 * @param fetchGrant the fetcher that sends token requests
 * @param options clocks and warning sink
 * @returns the same fetcher, pausing after failures
 */
export function pauseAfterFailure(fetchGrant: GrantFetcher, options: GrantPauseOptions): GrantFetcher {
  const failures: PauseFailures = options.failures ?? new Map();
  return async (scope, replacing) => {
    const failure = failures.get(scope);
    const held = failure?.pause.holds((seconds) => {
      const code = failure.error instanceof AuthError ? failure.error.code : 'UNKNOWN';
      const why = !refusesCredentials(failure.error)
        ? ''
        : CREDENTIALS_REFUSED.includes(failure.error.error)
        ? ' (the credentials were refused: sent again sooner, they could lock the account)'
        : ` (a ${failure.error.status} without an OAuth error, as refused credentials may be answered: sent again sooner, ` +
          'they could lock the account)';
      options.warn(
        `The last token request for scope "${scope}" failed (${code}); giving that failure again for ${seconds} s without a new request${why}`,
      );
    });
    if (failure && held) throw failure.error;
    try {
      const grant = await fetchGrant(scope, replacing);
      failures.delete(scope);
      return grant;
    } catch (error) {
      const pause = failure?.pause ?? new Pause(options.now);
      // An AuthError keeps the answer it reports as `response` (non-enumerable), with the wait that answer asked for.
      const answer: unknown = (error as { response?: unknown } | null | undefined)?.response;
      const asked = answer instanceof Response ? retryAfterMs(answer.headers.get('retry-after'), options.wallNow()) : undefined;
      pause.failed(Math.max(asked ?? 0, refusesCredentials(error) ? CREDENTIALS_PAUSE_MS : 0));
      failures.set(scope, { pause, error });
      throw error;
    }
  };
}
