/**
 * Reads an async source ahead, in the background, and hands its values on in batches of those that have come:
 * all that wait once at least `min` do, and the rest when the source ends. A consumer slower than its source
 * so takes bigger batches as it falls behind (a video's keyframes decoded while its shots are still found). An
 * error of the source is thrown at the next batch.
 * @example
 * for await (const times of waitingBatches(keyframes, 8)) await decode(times); // [1, 5, …] (8 or more), …
 */
export async function* waitingBatches<T>(source: AsyncIterable<T>, min: number): AsyncGenerator<T[]> {
  const waiting: T[] = [];
  let ended = false;
  let failed: { error: unknown } | null = null;
  let stopped = false;
  let wake = (): void => {};
  void (async () => {
    try {
      for await (const value of source) {
        if (stopped) return;
        waiting.push(value);
        wake();
      }
    } catch (error) {
      failed = { error };
    } finally {
      ended = true;
      wake();
    }
  })();
  try {
    for (;;) {
      while (waiting.length < min && !ended) await new Promise<void>((r) => (wake = r));
      if (failed) throw (failed as { error: unknown }).error;
      if (waiting.length === 0) return;
      yield waiting.splice(0);
    }
  } finally {
    stopped = true;
  }
}
