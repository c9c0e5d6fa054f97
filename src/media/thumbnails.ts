import { rename, rm, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { MediaError } from './errors.js';
import { scaledSize, scaleFilter } from './geometry.js';
import { probeMedia, type MediaProbe } from './probe.js';
import { fileUrl, runTool } from './run.js';

/** Options for {@link writeThumbnail}. */
export interface ThumbnailOptions {
  signal?: AbortSignal;
  /** Maximum width in pixels (aspect kept, never upscaled). Default 320. */
  width?: number;
  /** JPEG quality on ffmpeg's `-q:v` scale, 2 (best) .. 31 (worst). Default 5. */
  quality?: number;
  probe?: MediaProbe;
}

/**
 * Writes a small JPEG of the frame shown at `time` (clamped into the video) to `outPath`, atomically
 * (a temp file renamed into place, so readers never see half a JPEG).
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
  const { signal, width = 320, quality = 5 } = opts;
  const probe = opts.probe ?? (await probeMedia(file, { signal, checkIntegrity: false }));
  if (!probe.video) throw new MediaError('no_video', `${basename(file)} has no video stream to take a thumbnail from`);
  const size = scaledSize(probe.video, width);
  const tmp = `${outPath}.${process.pid}.${Date.now()}.tmp.jpg`;
  const at = Math.min(Math.max(0, time), Math.max(0, probe.durationSec - 0.05));
  try {
    // Near the end a seek can land after the last video frame; stepping back a little finds one.
    for (const t of [at, Math.max(0, at - 1), Math.max(0, at - 3)]) {
      await runTool(
        'ffmpeg',
        ['-hide_banner', '-nostdin', '-nostats', '-v', 'error', '-ss', t.toFixed(3), '-i', fileUrl(file), '-map', `0:${probe.video.index}`,
          '-frames:v', '1', '-vf', scaleFilter(size), '-q:v', String(quality), '-f', 'mjpeg', '-y', fileUrl(tmp)],
        { signal },
      );
      if ((await stat(tmp).catch(() => undefined))?.size) {
        await rename(tmp, outPath);
        return { path: outPath, ...size, time: t };
      }
    }
    throw new MediaError('no_frame', `no frame could be decoded from ${basename(file)} near ${at.toFixed(3)} s`);
  } finally {
    await rm(tmp, { force: true });
  }
}
