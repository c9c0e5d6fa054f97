/** Typed arrays a stream of samples or bytes comes in. */
type Samples = Uint8Array | Float32Array;

/**
 * Regroups chunks of any length into windows of exactly `size` elements: raw video frames from an ffmpeg
 * pipe, 512-sample windows for voice activity. `reuse` hands out one window that the next one overwrites
 * (the caller is done with it before asking for more); otherwise each window owns its memory. A trailing
 * partial window is dropped, or zero-padded and yielded with `padTail`.
 * @example
 * for await (const rgb of fixedWindows(proc.stdout, width * height * 3, (n) => new Uint8Array(n))) use(rgb);
 */
export async function* fixedWindows<T extends Samples>(
  chunks: AsyncIterable<Samples> | Iterable<Samples>,
  size: number,
  alloc: (n: number) => T,
  opts: { reuse?: boolean; padTail?: boolean } = {},
): AsyncGenerator<T> {
  let window = alloc(size);
  let filled = 0;
  for await (const chunk of chunks) {
    let offset = 0;
    while (offset < chunk.length) {
      const n = Math.min(size - filled, chunk.length - offset);
      window.set(chunk.subarray(offset, offset + n) as never, filled);
      filled += n;
      offset += n;
      if (filled === size) {
        yield window;
        if (!opts.reuse) window = alloc(size);
        filled = 0;
      }
    }
  }
  if (filled > 0 && opts.padTail) {
    window.fill(0, filled);
    yield window;
  }
}
