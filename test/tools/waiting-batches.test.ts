import { describe, expect, it } from 'vitest';
import { waitingBatches } from '../../src/tools/waiting-batches.js';

/** A source that gives its values when told to, as a shot pass settles keyframes. */
function controlled<T>() {
  const queue: T[] = [];
  let ended = false;
  let failure: Error | null = null;
  let wake = (): void => {};
  const source = (async function* () {
    for (;;) {
      while (queue.length === 0 && !ended && !failure) await new Promise<void>((r) => (wake = r));
      if (queue.length) yield queue.shift()!;
      else if (failure) throw failure;
      else return;
    }
  })();
  return {
    source,
    give: (...values: T[]) => {
      queue.push(...values);
      wake();
    },
    end: () => {
      ended = true;
      wake();
    },
    fail: (e: Error) => {
      failure = e;
      wake();
    },
  };
}

const turn = () => new Promise((r) => setImmediate(r));

describe('waitingBatches', () => {
  it('hands on all that wait once enough do, more as the consumer falls behind, and the rest at the end', async () => {
    const c = controlled<number>();
    const batches = waitingBatches(c.source, 3);
    c.give(1, 2);
    const first = batches.next();
    await turn();
    c.give(3);
    expect((await first).value).toEqual([1, 2, 3]);
    c.give(4, 5, 6, 7, 8);
    await turn();
    expect((await batches.next()).value).toEqual([4, 5, 6, 7, 8]);
    c.give(10);
    c.end();
    expect((await batches.next()).value).toEqual([10]);
    expect((await batches.next()).done).toBe(true);
  });

  it("throws the source's error at the next batch", async () => {
    const c = controlled<number>();
    const batches = waitingBatches(c.source, 2);
    c.give(1);
    c.fail(new Error('pass failed'));
    await expect(batches.next()).rejects.toThrow('pass failed');
  });
});
