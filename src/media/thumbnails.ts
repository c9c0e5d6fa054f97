import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import sharp from 'sharp';
import { extractFrame } from './frames.js';
import type { MediaTools } from './binaries.js';
import type { RgbPicture } from './perceptual.js';
import type { MediaProbe } from './probe.js';

/** Options for {@link writeThumbnail}. */
export interface ThumbnailOptions {
  signal?: AbortSignal;
  /** The server's tools (FFMPEG_PATH …); default: npm packages, then PATH. */
  tools?: MediaTools;
  /** Maximum width, and height, in pixels (aspect kept, never upscaled). Default 320. */
  width?: number;
  /** JPEG quality 1..100. Default 75. */
  quality?: number;
  probe?: MediaProbe;
}

/**
 * Writes a small JPEG of the frame shown at `time` (clamped into the video) to `outPath`, atomically
 * (see {@link writeJpeg}). The frame comes from
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
  const { signal, width = 320, quality = 75, probe, tools } = opts;
  const frame = await extractFrame(file, time, { signal, maxWidth: width, tools, ...(probe ? { probe } : {}) });
  const jpeg = await thumbnailJpeg(frame, { width, quality });
  await writeJpeg(jpeg, outPath);
  const size = await sharp(jpeg).metadata();
  return { path: outPath, width: size.width ?? frame.width, height: size.height ?? frame.height, time: frame.time };
}

/**
 * A thumbnail JPEG of a decoded frame, the whole frame within a square of `width` (aspect kept, never
 * upscaled, never cropped): a wide frame is `width` wide, a tall one (a phone's screenshot or video) `width`
 * high, which is what a card shows it at, contained, rather than a long strip of which only the middle shows.
 * For frames the analysis decodes anyway, so a thumbnail at one of their times needs no second decode.
 * @example
 * const jpeg = await thumbnailJpeg(frame); // 1280×720 → 320×180; 1080×2400 → 144×320; quality 75
 */
export async function thumbnailJpeg(frame: RgbPicture, opts: { width?: number; quality?: number } = {}): Promise<Buffer> {
  const { width = 320, quality = 75 } = opts;
  let image = sharp(frame.data, { raw: { width: frame.width, height: frame.height, channels: 3 } });
  if (frame.width > width || frame.height > width) image = image.resize({ width, height: width, fit: 'inside' });
  return image.jpeg({ quality, mozjpeg: false }).toBuffer();
}

/**
 * Writes a JPEG to `outPath` atomically (a temp file renamed into place, so readers never see half a JPEG).
 * @example
 * await writeJpeg(jpeg, '/data/thumbs/ep-0.jpg');
 */
export async function writeJpeg(jpeg: Buffer, outPath: string): Promise<void> {
  await mkdir(dirname(outPath), { recursive: true });
  const tmp = `${outPath}.${process.pid}.${Date.now()}.tmp`;
  try {
    await writeFile(tmp, jpeg);
    await rename(tmp, outPath);
  } finally {
    await rm(tmp, { force: true });
  }
}
