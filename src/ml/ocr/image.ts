import sharp from 'sharp';
import type { RgbFrame } from './types.js';

/**
 * Accepts a decoded RGB frame as is, or decodes an encoded image (JPEG, PNG, WebP…) with sharp.
 * Alpha is dropped and greyscale is expanded, so the result always has three channels.
 * @example
 * const frame = await toRgbFrame(await readFile('slide.png'));
 */
export async function toRgbFrame(image: RgbFrame | Buffer | Uint8Array): Promise<RgbFrame> {
  if (!isFrame(image)) {
    const { data, info } = await sharp(image).removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
    if (info.channels !== 3) throw new Error(`decoded image has ${info.channels} channels, expected 3`);
    return { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height };
  }
  const { data, width, height } = image;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width <= 0 || height <= 0) {
    throw new Error(`invalid frame size ${width}x${height}`);
  }
  if (data.length !== width * height * 3) {
    throw new Error(`frame data has ${data.length} bytes, expected ${width * height * 3} (RGB, 3 channels)`);
  }
  return image;
}

function isFrame(image: RgbFrame | Buffer | Uint8Array): image is RgbFrame {
  return !(image instanceof Uint8Array) && typeof image === 'object' && image !== null && 'data' in image;
}

/**
 * Resizes an RGB frame to exactly `width` x `height` (aspect not kept) with sharp.
 * @example
 * const small = await resizeFrame(frame, 960, 544);
 */
export async function resizeFrame(frame: RgbFrame, width: number, height: number): Promise<RgbFrame> {
  if (width === frame.width && height === frame.height) return frame;
  const data = await sharp(frame.data, { raw: { width: frame.width, height: frame.height, channels: 3 } })
    .resize(width, height, { fit: 'fill', kernel: 'linear' })
    .raw()
    .toBuffer();
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width, height };
}
