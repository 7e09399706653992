/**
 * Leaf: the module's sense of time. Every read of the clock and every wait in
 * `src/` goes through a {@link Clock} (a test checks that no other file reads
 * the time), so tests drive the client with a fake one instead of sleeping.
 * ky's own request `timeout` runs on ky's timers: it is ky's option, given by
 * the caller.
 */

/** Monotonic time, wall time and waiting. */
export interface Clock {
  /** Monotonic instant in ms: token lifetimes are measured on it. The system clock's counts the time the machine was suspended. */
  now(): number;
  /** Wall-clock ms since the epoch: what processes sharing a store agree on. */
  wallNow(): number;
  /**
   * Resolves after `ms`; aborting `signal` cancels the wait (it then never
   * resolves, and no timer stays behind to keep the process alive).
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** The platform's two readings of time, in ms. */
export interface TimeSources {
  /** Monotonic time: never goes back, and stands still while the machine is suspended. */
  monotonic(): number;
  /** Wall-clock time since the epoch: may be set back or forward. */
  wall(): number;
}

/** How much further the wall clock may move than the monotonic clock between two readings before it counts as a suspend. */
const SUSPEND_GAP_MS = 1_000;

/**
 * A real clock over two time sources. Its monotonic time also counts the time the machine was suspended: the
 * platform's monotonic clock stands still while a laptop sleeps, so a token obtained before would still seem valid
 * long after it expired. When the wall clock moved more than {@link SUSPEND_GAP_MS} further than the monotonic clock
 * since the last reading, the difference is added; a wall clock set back is ignored, so this time never goes back.
 *
 * @param sources the readings of time
 * @returns the clock, sleeping on `setTimeout`
 */
export function createSystemClock(sources: TimeSources): Clock {
  let lastMonotonic = sources.monotonic();
  let lastWall = sources.wall();
  let suspended = 0;
  return {
    now() {
      const monotonic = sources.monotonic();
      const wall = sources.wall();
      const gap = wall - lastWall - (monotonic - lastMonotonic);
      if (gap > SUSPEND_GAP_MS) suspended += gap;
      lastMonotonic = monotonic;
      lastWall = wall;
      return monotonic + suspended;
    },
    wallNow: () => sources.wall(),
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
}

/** The real clock: `performance.now` (with the time suspended added), `Date.now` and `setTimeout`. */
export const systemClock: Clock = createSystemClock({ monotonic: () => performance.now(), wall: () => Date.now() });

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
