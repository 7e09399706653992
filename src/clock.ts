/**
 * Leaf: the module's sense of time. Every read of the clock and every wait in
 * `src/` goes through a {@link Clock} (a test checks that no other file reads
 * the time), so tests drive the client with a fake one instead of sleeping.
 * ky's own request `timeout` runs on ky's timers: it is ky's option, given by
 * the caller.
 */

/** Monotonic time, wall time and waiting. */
export interface Clock {
  /** Monotonic instant in ms: token lifetimes are measured on it. */
  now(): number;
  /** Wall-clock ms since the epoch: what processes sharing a store agree on. */
  wallNow(): number;
  /**
   * Resolves after `ms`; aborting `signal` cancels the wait (it then never
   * resolves, and no timer stays behind to keep the process alive).
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** The real clock: `performance.now`, `Date.now` and `setTimeout`. */
export const systemClock: Clock = {
  now: () => performance.now(),
  wallNow: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve) => {
      if (signal?.aborted) return;
      const stop = () => clearTimeout(timer);
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', stop);
        resolve();
      }, ms);
      signal?.addEventListener('abort', stop, { once: true });
    }),
};

/**
 * A time limit on a clock: its signal aborts once `ms` have passed. Cancel it when the work ends, so that no wait
 * stays behind to keep the process alive.
 *
 * @param clock the clock
 * @param ms the limit
 * @returns the signal, and `cancel` to end the wait
 */
export function timeLimit(clock: Clock, ms: number): { readonly signal: AbortSignal; cancel(): void } {
  const finished = new AbortController();
  const expired = new AbortController();
  void clock.sleep(ms, finished.signal).then(() => expired.abort());
  return { signal: expired.signal, cancel: () => finished.abort() };
}
