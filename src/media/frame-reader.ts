import type { Readable } from 'node:stream';

/**
 * Splits a raw video pipe (fixed-size frames, e.g. rgb24) into one `Uint8Array` per frame. Each frame
 * owns its memory. A trailing partial frame (ffmpeg killed mid-write) is dropped.
 * @example
 * for await (const rgb of readRawFrames(proc.stdout, width * height * 3)) use(rgb);
 */
export async function* readRawFrames(stream: Readable, frameBytes: number): AsyncGenerator<Uint8Array> {
  let frame = new Uint8Array(frameBytes);
  let filled = 0;
  for await (const piece of stream as AsyncIterable<Buffer>) {
    let offset = 0;
    while (offset < piece.length) {
      const n = Math.min(frameBytes - filled, piece.length - offset);
      frame.set(piece.subarray(offset, offset + n), filled);
      filled += n;
      offset += n;
      if (filled === frameBytes) {
        yield frame;
        frame = new Uint8Array(frameBytes);
        filled = 0;
      }
    }
  }
}
