import { open } from 'node:fs/promises';
import sharp from 'sharp';
import { looksLikePicture } from './still-image.js';

/** A delivered thumbnail or face crop is at most this many pixels on a side (the pipeline's are a few hundred). */
export const MAX_THUMBNAIL_SIDE = 4_096;

/** ...and at most this many bytes. */
export const MAX_THUMBNAIL_BYTES = 8 * 1024 * 1024;

/** The formats the pipeline writes thumbnails and face crops in. */
const FORMATS = new Set(['jpeg', 'webp']);

/**
 * Why a file a worker delivered as a thumbnail or face crop is not one, or null when it is: a JPEG or
 * WebP picture (by its first bytes and by what sharp reads), of a sane size, that decodes to its end.
 * @example
 * await thumbnailProblem('/tmp/delivery-x/ep-0.jpg'); // null
 * await thumbnailProblem('/tmp/delivery-x/ep-1.jpg'); // 'is not a JPEG or WebP picture'
 */
export async function thumbnailProblem(file: string): Promise<string | null> {
  const fh = await open(file, 'r');
  let bytes: Buffer;
  try {
    const { size } = await fh.stat();
    if (size === 0) return 'is empty';
    if (size > MAX_THUMBNAIL_BYTES) return `is larger than ${MAX_THUMBNAIL_BYTES} bytes`;
    bytes = await fh.readFile();
  } finally {
    await fh.close();
  }
  if (!looksLikePicture(bytes)) return 'is not a JPEG or WebP picture';
  try {
    const image = sharp(bytes, { limitInputPixels: MAX_THUMBNAIL_SIDE * MAX_THUMBNAIL_SIDE, failOn: 'warning' });
    const m = await image.metadata();
    if (!m.format || !FORMATS.has(m.format)) return `is a ${m.format ?? 'unknown'} picture, not JPEG or WebP`;
    if (!m.width || !m.height || m.width > MAX_THUMBNAIL_SIDE || m.height > MAX_THUMBNAIL_SIDE) return `is ${m.width ?? 0}×${m.height ?? 0} pixels; at most ${MAX_THUMBNAIL_SIDE} on a side`;
    // Decoded whole (to a tiny size), so a cut-off or corrupt picture is found here and not when it is shown.
    await image.resize(8, 8, { fit: 'fill' }).raw().toBuffer();
    return null;
  } catch (err) {
    return `does not decode as a picture (${(err as Error).message})`;
  }
}
