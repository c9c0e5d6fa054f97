import sharp from 'sharp';
import type { FileAccess } from './file-access.js';
import { decodeStill, STILL_FORMATS } from './still-decode.js';
import { isHeifPicture } from './heic.js';

/** What a still picture's header says. */
export interface StillImageInfo {
  format: string;
  width: number;
  height: number;
}

/** Largest picture read into memory to be recognised; bigger files are not taken for stills. */
export const MAX_PICTURE_BYTES = 256 * 1024 * 1024;

/**
 * Magic numbers of the formats in STILL_FORMATS (ISO-BMFF ones by their `ftyp` brand).
 * @example
 * looksLikePicture(Buffer.from('89504e470d0a1a0a', 'hex')); // true (PNG)
 */
export function looksLikePicture(head: Buffer): boolean {
  const hex = head.subarray(0, 12).toString('hex');
  const ascii = head.subarray(0, 12).toString('latin1');
  return (
    hex.startsWith('ffd8ff') || hex.startsWith('89504e47') || ascii.startsWith('GIF8') ||
    (ascii.startsWith('RIFF') && ascii.slice(8, 12) === 'WEBP') || hex.startsWith('49492a00') || hex.startsWith('4d4d002a') ||
    (ascii.slice(4, 8) === 'ftyp' && /^(avif|avis|heic|heix|mif1|msf1)$/.test(ascii.slice(8, 12)))
  );
}

/**
 * The file's bytes when its first bytes are those of a picture format, read through the file-access rule
 * (the decoder never opens the name itself); null otherwise, without reading further.
 */
async function readIfPicture(files: FileAccess, file: string): Promise<Buffer | null> {
  const fh = await files.openCheckedFile(file);
  try {
    const { size } = await fh.stat();
    const head = Buffer.alloc(Math.min(16, size));
    await fh.read(head, 0, head.length, 0);
    if (!looksLikePicture(head) || size > MAX_PICTURE_BYTES) return null;
    return await fh.readFile();
  } finally {
    await fh.close();
  }
}

/**
 * Recognises a still picture by its content (sharp reads the header only). Animated GIF/WebP are left to
 * ffprobe (they are video); a HEIF of several pictures is its primary one. A HEIF picture whose header sharp
 * cannot read (cut off, damaged) is still a picture, of size 0 × 0: its decode then says what is wrong with it,
 * where ffprobe would call it a cut-off MP4. Anything else sharp does not read gives null.
 * @example
 * await probeStillImage(files, '/media/photo.jpg'); // { format: 'jpeg', width: 4032, height: 3024 }
 * await probeStillImage(files, '/media/talk.mp4'); // null
 */
export async function probeStillImage(files: FileAccess, file: string): Promise<StillImageInfo | null> {
  try {
    const bytes = await readIfPicture(files, file);
    if (!bytes) return null;
    const heif = isHeifPicture(bytes);
    // No pixel limit for the header: a picture declaring too many pixels is still a picture, refused by name when decoded.
    const m = await sharp(bytes, { limitInputPixels: false }).metadata().catch((err: unknown) => (heif ? null : Promise.reject(err)));
    if (!m) return { format: 'heif', width: 0, height: 0 };
    // Several pictures make an animation of a GIF or WebP (video, for ffprobe), but a HEIF's are a primary
    // photo with others beside it (a burst, an edit): the photo is its primary, which decodeStill reads.
    const animated = (m.pages ?? 1) > 1 && m.format !== 'heif';
    if (!m.format || !STILL_FORMATS.has(m.format) || animated || !m.width || !m.height) return null;
    return { format: m.format, width: m.width, height: m.height };
  } catch {
    return null;
  }
}

/** Query pictures are read at most this wide or high: fingerprints (64×64) and CLIP (224×224) need less. */
const QUERY_SIDE = 640;

/**
 * Decodes a picture given as bytes (a search's query image) to upright RGB, at most 640 px on a side.
 * Throws MediaError (`not_media`, `unsupported_format`) when the bytes are not a picture vidx reads, or are cut off.
 * @example
 * const picture = await decodePicture(await readFile('frame.jpg')); // { data, width, height }
 */
export async function decodePicture(bytes: Uint8Array): Promise<{ data: Uint8Array; width: number; height: number }> {
  return (await decodeStill(bytes, { maxSide: QUERY_SIDE })).frame;
}
