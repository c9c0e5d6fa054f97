import { MediaError } from './errors.js';

/** HEIF picture brands (HEIC, AVIF): a file that starts with one is a picture, whole or not. */
const HEIF_PICTURE = /^(avif|heic|heix|mif1)$/;

/**
 * Whether bytes start as a HEIF picture does (an `ftyp` box naming a HEIC, AVIF or HEIF picture brand).
 * @example
 * isHeifPicture(await readFile('IMG_0001.HEIC')); // true
 */
export function isHeifPicture(head: Uint8Array): boolean {
  const b = Buffer.from(head.buffer, head.byteOffset, Math.min(head.byteLength, 12));
  return b.length === 12 && b.toString('latin1', 4, 8) === 'ftyp' && HEIF_PICTURE.test(b.toString('latin1', 8, 12));
}

/** Largest picture decoded, in pixels (the limit sharp gets for every other format too). */
export const MAX_PICTURE_PIXELS = 100_000_000;

/** A picture's pixels as RGBA, rows top to bottom. */
export interface RgbaPixels {
  data: Uint8Array;
  width: number;
  height: number;
}

/**
 * Decodes an HEVC-coded HEIF picture (iPhone HEIC) with libheif compiled to WebAssembly, for sharp's
 * prebuilt libvips carries no HEVC decoder. The decoder (LGPL) is a separate npm package loaded here at
 * run time only, so nothing of it is linked into vidx. libheif applies the file's rotation and mirror
 * boxes, so the pixels come upright: HEIF says those boxes, not the EXIF orientation tag, rule.
 * The declared size is checked before any pixel buffer is allocated. `index`: which of the file's top-level
 * pictures, in libheif's order (sharp's `pagePrimary` names the primary one; a file of several pictures,
 * such as a burst, shows its primary). Throws MediaError('unsupported_format') when the file does not decode
 * (cut off, corrupt, too large).
 * @example
 * const { data, width, height } = await decodeHeic(await readFile('IMG_0001.HEIC')); // 4032 × 3024 RGBA
 */
export async function decodeHeic(bytes: Uint8Array, index = 0): Promise<RgbaPixels> {
  const { default: heic } = await import('heic-decode');
  let images: Awaited<ReturnType<typeof heic.all>>;
  try {
    images = await heic.all({ buffer: bytes });
  } catch (err) {
    throw undecodable(err);
  }
  try {
    const first = images[index] ?? images[0];
    if (!first) throw new MediaError('unsupported_format', 'the HEIF/HEVC picture holds no image');
    if (!(first.width > 0 && first.height > 0) || first.width * first.height > MAX_PICTURE_PIXELS) {
      throw new MediaError('unsupported_format', `the HEIF/HEVC picture declares ${first.width}×${first.height} pixels, more than vidx decodes (${MAX_PICTURE_PIXELS / 1e6} megapixels)`);
    }
    const out = await first.decode().catch((err: unknown) => Promise.reject(undecodable(err)));
    return { data: new Uint8Array(out.data.buffer, out.data.byteOffset, out.data.byteLength), width: out.width, height: out.height };
  } finally {
    images.dispose();
  }
}

function undecodable(err: unknown): MediaError {
  if (err instanceof MediaError) return err;
  const reason = err instanceof Error ? err.message : String(err);
  return new MediaError('unsupported_format', `the HEIF/HEVC picture does not decode (cut off or damaged?): ${reason}`, { cause: err });
}
