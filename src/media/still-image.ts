import sharp from 'sharp';

/** Still-picture formats vidx reads with sharp (SVG is left out: it is a document that can reference other files). */
const STILL_FORMATS = new Set(['jpeg', 'png', 'webp', 'tiff', 'avif', 'heif', 'gif']);

/** What a still picture's header says. */
export interface StillImageInfo {
  format: string;
  width: number;
  height: number;
}

/**
 * Recognises a still picture by its content (sharp reads the header only). Animated GIF/WebP are left to
 * ffprobe (they are video); anything sharp does not read gives null.
 * @example
 * await probeStillImage('/media/photo.jpg'); // { format: 'jpeg', width: 4032, height: 3024 }
 * await probeStillImage('/media/talk.mp4'); // null
 */
export async function probeStillImage(file: string): Promise<StillImageInfo | null> {
  try {
    const m = await sharp(file).metadata();
    if (!m.format || !STILL_FORMATS.has(m.format) || (m.pages ?? 1) > 1 || !m.width || !m.height) return null;
    return { format: m.format, width: m.width, height: m.height };
  } catch {
    return null;
  }
}
