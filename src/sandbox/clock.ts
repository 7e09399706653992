/**
 * The sandbox's wall clock: the system clock's wall time plus an offset. In
 * test mode it can be advanced, so the 3600 s token lifetime and the
 * permanence of permanent tokens are checked in seconds.
 */
import { systemClock } from '../clock.ts';

/** A wall clock in ms that tests may move forward. */
export interface SandboxClock {
  /** Current time, ms since the epoch (plus any advance). */
  now(): number;
  /**
   * Moves the clock forward.
   * @param ms milliseconds, 0 or more
   */
  advance(ms: number): void;
  /** Total advance so far, ms. */
  offset(): number;
  /** Back to real time. */
  reset(): void;
}

/**
 * Creates a clock on the system's wall time with an advanceable offset.
 *
 * @returns the clock
 * @example
 * ```ts
 * const clock = createClock();
 * clock.advance(3_600_000);
 * ```
 */
export function createClock(): SandboxClock {
  let offset = 0;
  return {
    now: () => systemClock.wallNow() + offset,
    advance(ms) {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError('The clock only moves forward by a finite number of ms');
      offset += ms;
    },
    offset: () => offset,
    reset() {
      offset = 0;
    },
  };
}
