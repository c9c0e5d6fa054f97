import { setImmediate as nextTurn } from 'node:timers/promises';

/** How long a stretch of work may hold the event loop before it lets requests in, by default (ms). */
export const SLICE_MS = 10;

/**
 * Cuts long work on the request thread into slices: `pause()` lets the event loop run (requests, timers)
 * once the current slice has lasted `ms`, and returns at once before that. Work done between two calls
 * must itself be short; the slice then ends within `ms` plus one such step.
 * @example
 * const slices = new TimeSlices();
 * for (const line of lines) {
 *   handle(line);
 *   await slices.pause();
 * }
 */
export class TimeSlices {
  private started = performance.now();

  constructor(private readonly ms = SLICE_MS) {}

  /** Whether the current slice has used up its time. */
  get spent(): boolean {
    return performance.now() - this.started >= this.ms;
  }

  /** Yields to the event loop when the slice is spent (a new slice starts then). */
  async pause(): Promise<void> {
    if (this.spent) await this.yield();
  }

  /** Yields to the event loop now, and starts a new slice. */
  async yield(): Promise<void> {
    await nextTurn();
    this.started = performance.now();
  }
}

/**
 * Runs work written as steps (a generator that yields between short steps) to its end at once, and gives
 * its result: for small work, or callers that cannot wait.
 * @example
 * const text = runAll(indexTextSteps(transcript, 'en'));
 */
export function runAll<T>(steps: Generator<unknown, T>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/**
 * Runs work written as steps in slices: between steps, requests get their turn once the slice is spent.
 * @example
 * const text = await runInSlices(indexTextSteps(transcript, 'en'), slices);
 */
export async function runInSlices<T>(steps: Generator<unknown, T>, slices: TimeSlices): Promise<T> {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    await slices.pause();
  }
}
