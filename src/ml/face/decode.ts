import type { FaceDetection } from './types.js';

/** BlazeFace's two heads: a 16×16 grid with 2 anchors per cell, then an 8×8 grid with 6 (Keijiro's Postprocess1). */
const LAYERS = [
  { cells: 16, anchors: 2 },
  { cells: 8, anchors: 6 },
] as const;
/** Values per anchor in the box outputs: centre offset (2), size (2), six keypoints (12). */
const STRIDE = 16;
/** Overlap above which detections are blended into one (MediaPipe's and Keijiro's value). */
const IOU_MERGE = 0.3;

/**
 * Raw outputs of one run: per layer the scores (logits) and the boxes, in the model's output order.
 * @example
 * const raw: RawHeads = [{ scores: out['Identity:0'].data, boxes: out['Identity_2:0'].data }, { scores: out['Identity_1:0'].data, boxes: out['Identity_3:0'].data }];
 */
export type RawHeads = [{ scores: Float32Array; boxes: Float32Array }, { scores: Float32Array; boxes: Float32Array }];

/**
 * Detections above `threshold`, in 0..1 coordinates of the square model input, before overlap removal.
 * Offsets are in input pixels relative to each anchor's cell centre.
 * @example
 * const candidates = decodeHeads(raw, 256, 0.9);
 */
export function decodeHeads(raw: RawHeads, inputSize: number, threshold: number): FaceDetection[] {
  const found: FaceDetection[] = [];
  const logit = Math.log(threshold / (1 - threshold));
  LAYERS.forEach((layer, l) => {
    const { scores, boxes } = raw[l];
    for (let cy = 0; cy < layer.cells; cy++) {
      for (let cx = 0; cx < layer.cells; cx++) {
        for (let a = 0; a < layer.anchors; a++) {
          const idx = (cy * layer.cells + cx) * layer.anchors + a;
          if (!(scores[idx] > logit)) continue;
          const ax = (cx + 0.5) / layer.cells;
          const ay = (cy + 0.5) / layer.cells;
          const o = idx * STRIDE;
          const w = boxes[o + 2] / inputSize;
          const h = boxes[o + 3] / inputSize;
          const keypoints: Array<[number, number]> = [];
          for (let k = 0; k < 6; k++) keypoints.push([ax + boxes[o + 4 + 2 * k] / inputSize, ay + boxes[o + 5 + 2 * k] / inputSize]);
          found.push({
            x: ax + boxes[o] / inputSize - w / 2,
            y: ay + boxes[o + 1] / inputSize - h / 2,
            width: w,
            height: h,
            score: 1 / (1 + Math.exp(-scores[idx])),
            keypoints,
          });
        }
      }
    }
  });
  return found;
}

/**
 * Intersection over union of two boxes.
 * @example
 * iou({ x: 0, y: 0, width: 2, height: 2 }, { x: 1, y: 0, width: 2, height: 2 }); // 1/3
 */
export function iou(a: Pick<FaceDetection, 'x' | 'y' | 'width' | 'height'>, b: Pick<FaceDetection, 'x' | 'y' | 'width' | 'height'>): number {
  const ix = Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x));
  const iy = Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y));
  const inter = ix * iy;
  const union = a.width * a.height + b.width * b.height - inter;
  return union > 0 ? inter / union : 0;
}

/**
 * MediaPipe's weighted non-maximum suppression: the best detection absorbs every other one overlapping it by
 * at least `minIou`, and the result is their score-weighted mean (steadier boxes and keypoints than keeping
 * only the best), with the best score.
 * @example
 * const faces = blendOverlaps(candidates); // one detection per face
 */
export function blendOverlaps(dets: FaceDetection[], minIou = IOU_MERGE): FaceDetection[] {
  const left = [...dets].sort((p, q) => q.score - p.score);
  const kept: FaceDetection[] = [];
  while (left.length > 0) {
    const best = left[0];
    const group = left.filter((d) => iou(best, d) >= minIou);
    const rest = left.filter((d) => iou(best, d) < minIou);
    const total = group.reduce((s, d) => s + d.score, 0);
    const mean = (pick: (d: FaceDetection) => number) => group.reduce((s, d) => s + pick(d) * d.score, 0) / total;
    kept.push({
      x: mean((d) => d.x),
      y: mean((d) => d.y),
      width: mean((d) => d.width),
      height: mean((d) => d.height),
      score: best.score,
      keypoints: best.keypoints.map((_, k) => [mean((d) => d.keypoints[k][0]), mean((d) => d.keypoints[k][1])] as [number, number]),
    });
    left.splice(0, left.length, ...rest);
  }
  return kept;
}
