/**
 * Leaf: the client's sense of time. Every wait, timestamp and time limit in
 * the library goes through one {@link Clock}, so tests drive it with a fake
 * one instead of sleeping.
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
