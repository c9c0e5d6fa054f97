import { bilinear } from '../ocr/crop.js';
import type { RgbFrame } from '../ocr/types.js';

/**
 * An affine map from output pixels to source pixels: `sx = a*x + b*y + c`, `sy = d*x + e*y + f`.
 * @example
 * const scaleBy2: Affine = [2, 0, 0, 0, 2, 0];
 */
export type Affine = [number, number, number, number, number, number];

/**
 * Samples `frame` through `map` into an `outW`×`outH` NHWC float tensor (RGB, each channel `v * scale + shift`).
 * Points outside the frame stay black. Shrinking more than 2× averages a k×k grid of samples, so small
 * features do not alias away. Used for the detector's square inputs and the embedder's aligned crops.
 * @example
 * const t = warpToTensor(frame, [2, 0, 0, 0, 2, 0], 256, 256, 1 / 127.5, -1); // a 512 px square, shrunk to 256
 */
export function warpToTensor(frame: RgbFrame, map: Affine, outW: number, outH: number, scale: number, shift: number, out = new Float32Array(outW * outH * 3)): Float32Array {
  const [a, b, c, d, e, f] = map;
  const stretch = Math.max(Math.hypot(a, d), Math.hypot(b, e));
  const k = Math.min(4, Math.max(1, Math.round(stretch / 2)));
  const rgb: [number, number, number] = [0, 0, 0];
  const black = shift;
  for (let y = 0; y < outH; y++) {
    for (let x = 0; x < outW; x++) {
      let r = 0, g = 0, bl = 0, n = 0;
      for (let j = 0; j < k; j++) {
        const oy = y + (j + 0.5) / k;
        for (let i = 0; i < k; i++) {
          const ox = x + (i + 0.5) / k;
          const sx = a * ox + b * oy + c;
          const sy = d * ox + e * oy + f;
          n++;
          if (sx < 0 || sy < 0 || sx > frame.width || sy > frame.height) continue;
          bilinear(frame, sx, sy, rgb);
          r += rgb[0];
          g += rgb[1];
          bl += rgb[2];
        }
      }
      const o = (y * outW + x) * 3;
      out[o] = (r / n) * scale + black;
      out[o + 1] = (g / n) * scale + black;
      out[o + 2] = (bl / n) * scale + black;
    }
  }
  return out;
}
