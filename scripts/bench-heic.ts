/**
 * Times the decode of one 12-megapixel HEIC (4032×3024, as an iPhone writes): the WebAssembly decoder
 * alone, the whole still decode the analysis runs (decoder, sharp resize to 1600 px, RGB), and the full-size
 * JPEG a browser is shown (decoder, sharp JPEG at quality 85), with that JPEG's size.
 * Needs ffmpeg and heif-enc. Run: `npx tsx scripts/bench-heic.ts`.
 * @example
 * // npx tsx scripts/bench-heic.ts  →  heic decode: median 530 ms …
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeHeic } from '../src/media/heic.js';
import { browserJpeg, decodeStill } from '../src/media/still-decode.js';

const RUNS = 5;

async function median(fn: () => Promise<unknown>): Promise<number> {
  await fn(); // the first run also compiles the WebAssembly module
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b)[Math.floor(RUNS / 2)] ?? 0;
}

const dir = mkdtempSync(join(tmpdir(), 'vidx-bench-heic-'));
try {
  const png = join(dir, 'photo.png');
  const heic = join(dir, 'photo.heic');
  execFileSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=s=4032x3024', '-frames:v', '1', png]);
  execFileSync('heif-enc', ['-q', '80', '-o', heic, png]);
  const bytes = readFileSync(heic);
  const raw = await median(() => decodeHeic(bytes));
  const whole = await median(() => decodeStill(bytes, { maxSide: 1600 }));
  const shown = await median(() => browserJpeg(bytes));
  const jpeg = await browserJpeg(bytes);
  console.log(
    `12 MP HEIC (${(bytes.length / 1e6).toFixed(2)} MB): decoder ${raw.toFixed(0)} ms, decode to 1600 px RGB ${whole.toFixed(0)} ms, ` +
      `full-size JPEG for browsers ${shown.toFixed(0)} ms (${(jpeg.length / 1e6).toFixed(2)} MB) (median of ${RUNS})`,
  );
  console.log(JSON.stringify({ heicBytes: bytes.length, decoderMs: Math.round(raw), stillMs: Math.round(whole), browserJpegMs: Math.round(shown), browserJpegBytes: jpeg.length }));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
