import type { WallClock } from '../../src/services/timestamps.js';

/** A clock that stands still until a test moves it on (`pass`): a week passes without a week of waiting. */
export interface MovableClock extends WallClock {
  pass(ms: number): void;
}

/**
 * Starts at `start` (default now) and moves only when told.
 * @example
 * const time = movableClock();
 * const s = await startTestServer({ time });
 * time.pass(86_400_000);
 */
export function movableClock(start = Date.now()): MovableClock {
  let at = start;
  return {
    now: () => new Date(at),
    pass: (ms) => {
      at += ms;
    },
  };
}
