import type { MediaTools } from './binaries.js';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import sharp from 'sharp';
import { fileUrl, runTool } from './run.js';

/** Size and colours of a waveform picture: the page's accent on its dark card background. */
const WIDTH = 320;
const HEIGHT = 180;
const BACKGROUND = { r: 24, g: 28, b: 38 };

/**
 * Writes a waveform picture (JPEG) of `duration` seconds of audio from `start`, as an audio item's
 * thumbnail: ffmpeg draws the samples (showwavespic), sharp lays them on a solid background. Atomic, like
 * writeThumbnail.
 * @example
 * await writeWaveform('/media/memo.m4a', 0, 12.5, '/data/cache/ab12/ep-0.jpg');
 */
export async function writeWaveform(file: string, start: number, duration: number, outPath: string, opts: { signal?: AbortSignal; tools?: MediaTools } = {}): Promise<{ path: string }> {
  const { stdout } = await runTool(
    'ffmpeg',
    [
      '-hide_banner', '-nostdin', '-v', 'error',
      '-ss', start.toFixed(3), '-t', Math.max(0.1, duration).toFixed(3), '-i', fileUrl(file),
      '-filter_complex', `aformat=channel_layouts=mono,showwavespic=s=${WIDTH}x${HEIGHT}:colors=#7aa2ff:scale=sqrt`,
      '-frames:v', '1', '-f', 'image2pipe', '-c:v', 'png', 'pipe:1',
    ],
    { signal: opts.signal, tools: opts.tools, maxStdoutBytes: 4 * 1024 * 1024 },
  );
  await mkdir(dirname(outPath), { recursive: true });
  const tmp = `${outPath}.${process.pid}.${Date.now()}.tmp`;
  try {
    await sharp(stdout).flatten({ background: BACKGROUND }).jpeg({ quality: 80 }).toFile(tmp);
    await rename(tmp, outPath);
  } finally {
    await rm(tmp, { force: true });
  }
  return { path: outPath };
}
