import type { Readable } from 'node:stream';
import { fixedWindows } from '../tools/fixed-windows.js';

/**
 * Splits a raw video pipe (fixed-size frames, e.g. rgb24) into one `Uint8Array` per frame. Each frame
 * owns its memory. A trailing partial frame (ffmpeg killed mid-write) is dropped.
 * @example
 * for await (const rgb of readRawFrames(proc.stdout, width * height * 3)) use(rgb);
 */
export function readRawFrames(stream: Readable, frameBytes: number): AsyncGenerator<Uint8Array> {
  return fixedWindows(stream as AsyncIterable<Buffer>, frameBytes, (n) => new Uint8Array(n));
}
