import sharp, { type Sharp } from 'sharp';
import { MediaError } from './errors.js';
import { decodeHeic, isHeifPicture, MAX_PICTURE_PIXELS } from './heic.js';
import type { RgbPicture } from './perceptual.js';

/** A still picture decoded once for everything that reads it (OCR, prints, tags, thumbnails). */
export interface DecodedStill {
  /** Upright RGB pixels, at most `maxSide` on a side. */
  frame: RgbPicture;
  /** The full picture's size as shown (EXIF orientation or HEIF rotation applied). */
  width: number;
  height: number;
  /** The format sharp names (`jpeg`, `heif`, …). */
  format: string;
}

/** Still-picture formats vidx reads (SVG is left out: it is a document that can reference other files). */
export const STILL_FORMATS: ReadonlySet<string> = new Set(['jpeg', 'png', 'webp', 'tiff', 'avif', 'heif', 'gif']);

/** A still picture opened for decoding: its upright pixels as a sharp pipeline, and what the header said. */
interface OpenedStill {
  source: Sharp;
  /** The full picture's size as shown. */
  width: number;
  height: number;
  /** The format sharp names (`jpeg`, `heif`, …). */
  format: string;
  /** The format as a message names it (`JPEG`, `HEIF/HEVC`). */
  name: string;
}

/**
 * Opens a still picture's bytes: the header is checked (a format vidx reads, at most MAX_PICTURE_PIXELS),
 * and HEVC-coded HEIF, which the prebuilt libvips cannot decode, is decoded by the WebAssembly decoder first.
 */
async function openStill(bytes: Uint8Array): Promise<OpenedStill> {
  // The header is read without a pixel limit so a picture declaring too many pixels is refused by name below.
  let unread: unknown = null;
  const meta = await sharp(bytes, { limitInputPixels: false }).metadata().catch((err: unknown) => {
    unread = err;
    return null;
  });
  // A HEIF picture (by its ftyp brand) whose header does not read is a damaged picture, not "no picture".
  if (!meta && isHeifPicture(bytes)) throw new MediaError('unsupported_format', `the HEIF picture does not decode (cut off or damaged?): ${firstLine(unread)}`, { cause: unread });
  if (!meta?.format || !STILL_FORMATS.has(meta.format)) {
    throw new MediaError('not_media', `the file is not a picture vidx reads (JPEG, PNG, WebP, AVIF, HEIC/HEIF, TIFF, GIF)${meta?.format ? `: it is ${meta.format}` : ''}`);
  }
  const name = meta.format === 'heif' ? `HEIF/${(meta.compression ?? 'unknown').toUpperCase()}` : meta.format.toUpperCase();
  if ((meta.width ?? 0) * (meta.height ?? 0) > MAX_PICTURE_PIXELS) {
    throw new MediaError('unsupported_format', `the ${name} picture declares ${meta.width}×${meta.height} pixels, more than vidx decodes (${MAX_PICTURE_PIXELS / 1e6} megapixels)`);
  }
  if (meta.format === 'heif' && meta.compression === 'hevc') {
    const rgba = await decodeHeic(bytes, meta.pagePrimary ?? 0);
    return { source: sharp(rgba.data, { raw: { width: rgba.width, height: rgba.height, channels: 4 } }), width: rgba.width, height: rgba.height, format: meta.format, name };
  }
  // EXIF orientations 5–8 turn the picture a quarter.
  const turned = (meta.orientation ?? 1) >= 5;
  return {
    // failOn 'error': a truncated or corrupt picture fails here with sharp's reason instead of being read half.
    source: sharp(bytes, { failOn: 'error', limitInputPixels: MAX_PICTURE_PIXELS }).rotate(),
    width: (turned ? meta.height : meta.width) ?? 0,
    height: (turned ? meta.width : meta.height) ?? 0,
    format: meta.format,
    name,
  };
}

/**
 * Decodes a still picture's bytes to upright RGB, at most `maxSide` on a side: the one place every consumer
 * of a photo gets its pixels from. sharp decodes what its libvips can; HEVC-coded HEIF (iPhone HEIC), which
 * the prebuilt libvips cannot, goes through the WebAssembly decoder and its RGBA is handed to sharp.
 * Throws MediaError: `not_media` for bytes that are no picture, `unsupported_format` naming the format for
 * a picture that does not decode (cut off, damaged, too large).
 * @example
 * const { frame, width, height } = await decodeStill(await readFile('IMG_0001.HEIC'), { maxSide: 1600 });
 */
export async function decodeStill(bytes: Uint8Array, opts: { maxSide: number }): Promise<DecodedStill> {
  const { source, width, height, format, name } = await openStill(bytes);
  try {
    const { data, info } = await source
      .resize({ width: opts.maxSide, height: opts.maxSide, fit: 'inside', withoutEnlargement: true })
      .removeAlpha()
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
    return { frame: { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height }, width, height, format };
  } catch (err) {
    throw new MediaError('unsupported_format', `the ${name} picture does not decode (cut off or damaged?): ${firstLine(err)}`, { cause: err });
  }
}

/** A browser's JPEG is at most this many pixels on a side (libjpeg's own limit is 65,535). */
const MAX_SHOWN_SIDE = 16_384;

/**
 * The picture as a JPEG every browser shows, at its full size (at most 16,384 px on a side), upright: for
 * the formats browsers do not show (HEIC/HEIF, TIFF). Throws MediaError as {@link decodeStill} does.
 * @example
 * await writeFile('picture.jpg', await browserJpeg(await readFile('IMG_0001.HEIC')));
 */
export async function browserJpeg(bytes: Uint8Array): Promise<Buffer> {
  const { source, name } = await openStill(bytes);
  try {
    return await source
      .resize({ width: MAX_SHOWN_SIDE, height: MAX_SHOWN_SIDE, fit: 'inside', withoutEnlargement: true })
      // A transparent picture (HEIF and TIFF may have alpha) is shown on white, as a page shows it.
      .flatten({ background: '#ffffff' })
      .toColourspace('srgb')
      .jpeg({ quality: 85 })
      .toBuffer();
  } catch (err) {
    throw new MediaError('unsupported_format', `the ${name} picture does not decode (cut off or damaged?): ${firstLine(err)}`, { cause: err });
  }
}

/** The first line of a decoder's message: libvips adds a line per retry that says nothing more. */
function firstLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? '';
}
