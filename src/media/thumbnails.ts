import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import sharp from 'sharp';
import { extractFrame } from './frames.js';
import type { MediaProbe } from './probe.js';

/** Options for {@link writeThumbnail}. */
export interface ThumbnailOptions {
  signal?: AbortSignal;
  /** Maximum width in pixels (aspect kept, never upscaled). Default 320. */
  width?: number;
  /** JPEG quality 1..100. Default 75. */
  quality?: number;
  probe?: MediaProbe;
}

/**
 * Writes a small JPEG of the frame shown at `time` (clamped into the video) to `outPath`, atomically
 * (a temp file renamed into place, so readers never see half a JPEG). The frame comes from
 * {@link extractFrame}, so rotation and seek accuracy are the same as for analysis frames.
 * Throws `MediaError('no_video')` for audio-only files.
 * @example
 * const t = await writeThumbnail('/media/talk.mp4', 12, '/data/thumbs/clip-1.jpg', { width: 320 });
 * t; // { path: '/data/thumbs/clip-1.jpg', width: 320, height: 180, time: 12 }
 */
export async function writeThumbnail(
  file: string,
  time: number,
  outPath: string,
  opts: ThumbnailOptions = {},
): Promise<{ path: string; width: number; height: number; time: number }> {
  const { signal, width = 320, quality = 75, probe } = opts;
  const frame = await extractFrame(file, time, { signal, maxWidth: width, ...(probe ? { probe } : {}) });
  await mkdir(dirname(outPath), { recursive: true });
  const tmp = `${outPath}.${process.pid}.${Date.now()}.tmp`;
  try {
    await sharp(frame.data, { raw: { width: frame.width, height: frame.height, channels: 3 } })
      .jpeg({ quality, mozjpeg: false })
      .toFile(tmp);
    await rename(tmp, outPath);
  } finally {
    await rm(tmp, { force: true });
  }
  return { path: outPath, width: frame.width, height: frame.height, time: frame.time };
}
