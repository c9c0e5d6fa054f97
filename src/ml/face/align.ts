import type { FaceDetection } from './types.js';
import type { Affine } from './warp.js';

/**
 * Where the eyes, nose tip and mouth centre sit in a 112×112 crop for SFace/ArcFace-style embedders: the usual
 * five-point template (InsightFace, OpenCV's FaceRecognizerSF.alignCrop) with the two mouth corners replaced by
 * their middle, since BlazeFace gives the mouth centre. Pixel centres at +0.5, as warpToTensor samples.
 */
const TEMPLATE: Array<[number, number]> = [
  [38.2946, 51.6963],
  [73.5318, 51.5014],
  [56.0252, 71.7366],
  [56.1396, 92.2848],
].map(([x, y]) => [x + 0.5, y + 0.5]);

/**
 * Side of the aligned crop.
 * @example
 * warpToTensor(frame, alignFace(face), ALIGNED_SIZE, ALIGNED_SIZE, 1, 0);
 */
export const ALIGNED_SIZE = 112;

/**
 * The least-squares similarity (rotation, uniform scale, shift; no mirroring) taking the crop's template
 * points to the face's eyes, nose and mouth, as a map from crop pixels to frame pixels.
 * @example
 * const map = alignFace(face); // [a, -b, tx, b, a, ty]
 */
export function alignFace(face: Pick<FaceDetection, 'keypoints'>): Affine {
  const src = TEMPLATE;
  const dst = face.keypoints.slice(0, 4);
  const n = src.length;
  const mean = (pts: Array<[number, number]>, i: 0 | 1) => pts.reduce((s, p) => s + p[i], 0) / n;
  const [sx, sy, dx, dy] = [mean(src, 0), mean(src, 1), mean(dst, 0), mean(dst, 1)];
  let num1 = 0;
  let num2 = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    const x = src[i][0] - sx;
    const y = src[i][1] - sy;
    const u = dst[i][0] - dx;
    const v = dst[i][1] - dy;
    num1 += x * u + y * v;
    num2 += x * v - y * u;
    den += x * x + y * y;
  }
  const a = num1 / den;
  const b = num2 / den;
  return [a, -b, dx - a * sx + b * sy, b, a, dy - b * sx - a * sy];
}
