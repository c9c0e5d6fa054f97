/**
 * Photos with clear licences from Debian's python3-skimage (scripts/system-deps.sh installs it): two people
 * (astronaut Eileen Collins, public domain; the cameraman, skimage's licence), and pictures without a face that
 * fool a single look (a cat, a logo, a coffee cup, a rocket, a motorbike).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { toRgbFrame } from '../../src/ml/ocr/image.js';
import type { RgbFrame } from '../../src/ml/ocr/types.js';

/**
 * Folder of the skimage sample images.
 * @example
 * join(SKIMAGE_DATA, 'astronaut.png');
 */
export const SKIMAGE_DATA = '/usr/lib/python3/dist-packages/skimage/data';

/**
 * Photos with one face each (the face's box in the original photo, measured by eye on the photo).
 * @example
 * FACE_PHOTOS[0].file; // 'astronaut.png'
 */
export const FACE_PHOTOS = [
  { file: 'astronaut.png', face: { x: 170, y: 70, width: 105, height: 110 } },
  { file: 'camera.png', face: { x: 185, y: 120, width: 75, height: 75 } },
];

/**
 * Photos without a human face.
 * @example
 * for (const f of NO_FACE_PHOTOS) await photoFrame(f);
 */
export const NO_FACE_PHOTOS = ['chelsea.png', 'coffee.png', 'logo.png', 'rocket.jpg', 'motorcycle_left.png'];

/**
 * One photo as an RGB frame, optionally scaled by `scale`.
 * @example
 * const frame = await photoFrame('camera.png', 0.5);
 */
export async function photoFrame(file: string, scale = 1): Promise<RgbFrame> {
  const img = sharp(await readFile(join(SKIMAGE_DATA, file))).removeAlpha().toColourspace('srgb');
  if (scale !== 1) {
    const meta = await sharp(await readFile(join(SKIMAGE_DATA, file))).metadata();
    img.resize(Math.round((meta.width ?? 0) * scale), Math.round((meta.height ?? 0) * scale));
  }
  const { data, info } = await img.raw().toBuffer({ resolveWithObject: true });
  return toRgbFrame({ data: new Uint8Array(data), width: info.width, height: info.height });
}

/**
 * A grey 1280×720 frame with photos pasted at the given places and scales.
 * @example
 * const frame = await collage([{ file: 'camera.png', scale: 0.5, left: 100, top: 200 }]);
 */
export async function collage(parts: Array<{ file: string; scale: number; left: number; top: number }>, width = 1280, height = 720): Promise<RgbFrame> {
  const layers = await Promise.all(
    parts.map(async (p) => {
      const f = await photoFrame(p.file, p.scale);
      const input = await sharp(f.data, { raw: { width: f.width, height: f.height, channels: 3 } }).png().toBuffer();
      return { input, left: p.left, top: p.top };
    }),
  );
  const { data } = await sharp({ create: { width, height, channels: 3, background: '#808080' } }).composite(layers).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width, height };
}
