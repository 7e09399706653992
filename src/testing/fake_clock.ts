/**
 * Test helper: a {@link Clock} that moves only when told to. `sleep` waits
 * for `advance` (or, with `autoAdvance`, a wait moves the clock to its own
 * end at once), so waits and deadlines are tested in milliseconds of real time.
 */
import type { Clock } from '../clock.ts';

/** A fake clock and its controls. */
export interface FakeClock extends Clock {
  /** Moves both clocks forward and wakes every sleeper whose time came. */
  advance(ms: number): void;
  /** How many `sleep` calls were made. */
  sleeps(): number;
  /** How many `sleep` calls are still waiting (neither woken nor cancelled). */
  pending(): number;
}

/**
 * Creates a fake clock.
 *
 * @param options `autoAdvance`: a plain `sleep` (a wait) moves the clock by its own length and resolves
 *   at once; one given a signal (a time limit, cancelled when the work ends) still waits for `advance`;
 *   `start`: wall time at 0 on the monotonic clock
 * @returns the clock
 */
export function createFakeClock(options: { autoAdvance?: boolean; start?: number } = {}): FakeClock {
  let time = 0;
  let count = 0;
  const start = options.start ?? 1_700_000_000_000;
  const sleepers: { at: number; wake: () => void }[] = [];
  const clock: FakeClock = {
    now: () => time,
    wallNow: () => start + time,
    sleep(ms, signal) {
      count++;
      if (options.autoAdvance && !signal) {
        clock.advance(ms);
        return Promise.resolve();
      }
      return new Promise((resolve) => {
        const sleeper = { at: time + ms, wake: resolve };
        sleepers.push(sleeper);
        signal?.addEventListener('abort', () => sleepers.splice(sleepers.indexOf(sleeper), 1), { once: true });
      });
    },
    advance(ms) {
      time += ms;
      for (const sleeper of sleepers.filter((s) => s.at <= time)) {
        sleepers.splice(sleepers.indexOf(sleeper), 1);
        sleeper.wake();
      }
    },
    sleeps: () => count,
    pending: () => sleepers.length,
  };
  return clock;
}
