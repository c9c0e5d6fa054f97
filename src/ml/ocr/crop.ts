import { quadSize } from './geometry.js';
import type { Quad, RgbFrame } from './types.js';

/**
 * Corner orders that turn a crop: a quarter turn counter-clockwise (numpy rot90, used for tall boxes)
 * and a half turn (used when the classifier says the text is upside down).
 * @example
 * const upright = rotateQuad(box, 180);
 */
export function rotateQuad(q: Quad, degrees: 90 | 180): Quad {
  return degrees === 90 ? [q[1], q[2], q[3], q[0]] : [q[2], q[3], q[0], q[1]];
}

/**
 * Samples the quad's content into one slot of a `[n, 3, outH, tensorW]` tensor, scaled to height `outH`
 * with its aspect kept (width capped at `tensorW`), normalised to -1..1 in BGR order like PaddleOCR's
 * rec/cls preprocessing. The right-hand padding is left at zero. Downscaling averages a k×k grid of
 * bilinear samples per output pixel so small glyph strokes do not alias away. Returns the width used.
 * @example
 * const usedW = sampleQuad(frame, box, tensor, 0, 48, 320);
 */
export function sampleQuad(frame: RgbFrame, q: Quad, tensor: Float32Array, slot: number, outH: number, tensorW: number): number {
  const { width: cropW, height: cropH } = quadSize(q);
  const outW = Math.max(1, Math.min(tensorW, Math.ceil(outH * (cropW / Math.max(1, cropH)))));
  const k = Math.min(4, Math.max(1, Math.ceil(Math.max(cropW / outW, cropH / outH))));
  const plane = outH * tensorW;
  const base = slot * 3 * plane;
  const [p0, p1, p2, p3] = q;
  const rgb: [number, number, number] = [0, 0, 0];
  const norm = 1 / (k * k * 127.5);
  for (let y = 0; y < outH; y++) {
    for (let x = 0; x < outW; x++) {
      let r = 0, g = 0, b = 0;
      for (let j = 0; j < k; j++) {
        const t = (y + (j + 0.5) / k) / outH;
        for (let i = 0; i < k; i++) {
          const s = (x + (i + 0.5) / k) / outW;
          const px = lerp2(p0[0], p1[0], p2[0], p3[0], s, t);
          const py = lerp2(p0[1], p1[1], p2[1], p3[1], s, t);
          bilinear(frame, px, py, rgb);
          r += rgb[0];
          g += rgb[1];
          b += rgb[2];
        }
      }
      const o = base + y * tensorW + x;
      tensor[o] = b * norm - 1;
      tensor[o + plane] = g * norm - 1;
      tensor[o + 2 * plane] = r * norm - 1;
    }
  }
  return outW;
}

/** Bilinear interpolation across the quad: s runs left→right, t top→bottom; corners sit on the crop's outer edges. */
function lerp2(a: number, b: number, c: number, d: number, s: number, t: number): number {
  const top = a + (b - a) * s;
  const bottom = d + (c - d) * s;
  return top + (bottom - top) * t;
}

/**
 * RGB at a sub-pixel position; pixel centres are at +0.5 and borders replicate.
 * @example
 * const rgb: [number, number, number] = [0, 0, 0]; bilinear(frame, 10.5, 4.25, rgb);
 */
export function bilinear(frame: RgbFrame, x: number, y: number, out: [number, number, number]): void {
  const { data, width, height } = frame;
  const fx = x - 0.5;
  const fy = y - 0.5;
  let x0 = Math.floor(fx);
  let y0 = Math.floor(fy);
  const ax = fx - x0;
  const ay = fy - y0;
  let x1 = x0 + 1;
  let y1 = y0 + 1;
  if (x0 < 0) x0 = 0;
  if (y0 < 0) y0 = 0;
  if (x1 > width - 1) x1 = width - 1;
  if (y1 > height - 1) y1 = height - 1;
  if (x0 > width - 1) x0 = width - 1;
  if (y0 > height - 1) y0 = height - 1;
  if (x1 < 0) x1 = 0;
  if (y1 < 0) y1 = 0;
  const i00 = (y0 * width + x0) * 3;
  const i10 = (y0 * width + x1) * 3;
  const i01 = (y1 * width + x0) * 3;
  const i11 = (y1 * width + x1) * 3;
  for (let c = 0; c < 3; c++) {
    const top = data[i00 + c] + (data[i10 + c] - data[i00 + c]) * ax;
    const bottom = data[i01 + c] + (data[i11 + c] - data[i01 + c]) * ax;
    out[c] = top + (bottom - top) * ay;
  }
}
