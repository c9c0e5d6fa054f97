import { expandRect, insideQuad, minAreaRect } from './geometry.js';
import type { Point, Quad } from './types.js';

/**
 * Tuning of the DB (differentiable binarisation) box extraction; defaults are PaddleOCR's except `unclipRatio`.
 * @example
 * const opts: Partial<DbOptions> = { boxThreshold: 0.5 };
 */
export interface DbOptions {
  /** Pixel probability above which a pixel counts as text. */
  threshold: number;
  /** Minimum mean probability inside a candidate box. */
  boxThreshold: number;
  /** How far the shrunk text kernel is grown back: distance = area * ratio / perimeter. */
  unclipRatio: number;
  /** Shorter box side (map pixels) below which a candidate is dropped. */
  minSize: number;
  maxCandidates: number;
}

/**
 * The values used when a DB option is not given.
 * @example
 * dbBoxes(prob, w, h, { ...DEFAULT_DB_OPTIONS, unclipRatio: 1.5 });
 */
export const DEFAULT_DB_OPTIONS: DbOptions = {
  threshold: 0.3,
  boxThreshold: 0.6,
  // PaddleOCR uses 1.5. On rendered slide and caption text the tighter crops made the recogniser drop
  // word spaces ("Secondlinebelow"); 2.0 kept them without merging lines at 1.1x line spacing.
  unclipRatio: 2.0,
  minSize: 3,
  maxCandidates: 1000,
};

/**
 * A detected text box in probability-map coordinates with its mean probability.
 * @example
 * const b: DbBox = { box: [[0, 0], [90, 0], [90, 20], [0, 20]], score: 0.9 };
 */
export interface DbBox {
  box: Quad;
  score: number;
}

/**
 * Turns a DB probability map into text boxes: threshold, 8-connected components, min-area rectangle,
 * box score, unclip, second min-area rectangle, size filter. Coordinates stay in map pixels.
 * @example
 * const boxes = dbBoxes(prob, 960, 544); // [{ box: [[x,y]…], score: 0.87 }]
 */
export function dbBoxes(prob: Float32Array, width: number, height: number, options: Partial<DbOptions> = {}): DbBox[] {
  const opt = { ...DEFAULT_DB_OPTIONS, ...options };
  const out: DbBox[] = [];
  for (const points of components(prob, width, height, opt.threshold)) {
    if (out.length >= opt.maxCandidates) break;
    const rect = minAreaRect(points);
    if (Math.min(rect.width, rect.height) < opt.minSize) continue;
    const score = boxScore(prob, width, height, rect.corners);
    if (score < opt.boxThreshold) continue;
    const area = rect.width * rect.height;
    const perimeter = 2 * (rect.width + rect.height);
    const grown = minAreaRect(expandRect(rect.corners, (area * opt.unclipRatio) / perimeter));
    if (Math.min(grown.width, grown.height) < opt.minSize + 2) continue;
    out.push({ box: grown.corners, score });
  }
  return out;
}

/**
 * Outline points of each 8-connected component above `threshold`: the leftmost and rightmost pixel
 * centre of every row, which is all a convex hull needs.
 */
function* components(prob: Float32Array, width: number, height: number, threshold: number): Generator<Point[]> {
  const n = width * height;
  const seen = new Uint8Array(n);
  for (let i = 0; i < n; i++) if (prob[i] <= threshold) seen[i] = 1;
  const stack = new Int32Array(n);
  for (let start = 0; start < n; start++) {
    if (seen[start]) continue;
    seen[start] = 1;
    let top = 0;
    stack[top++] = start;
    const rowMin = new Map<number, number>();
    const rowMax = new Map<number, number>();
    while (top > 0) {
      const idx = stack[--top];
      const x = idx % width;
      const y = (idx - x) / width;
      const lo = rowMin.get(y);
      if (lo === undefined || x < lo) rowMin.set(y, x);
      const hi = rowMax.get(y);
      if (hi === undefined || x > hi) rowMax.set(y, x);
      for (let dy = -1; dy <= 1; dy++) {
        const ny = y + dy;
        if (ny < 0 || ny >= height) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          if (nx < 0 || nx >= width) continue;
          const j = ny * width + nx;
          if (!seen[j]) {
            seen[j] = 1;
            stack[top++] = j;
          }
        }
      }
    }
    const points: Point[] = [];
    for (const [y, lo] of rowMin) {
      points.push([lo, y]);
      const hi = rowMax.get(y)!;
      if (hi !== lo) points.push([hi, y]);
    }
    yield points;
  }
}

/** Mean probability of the map pixels whose centres fall inside the box (PaddleOCR's "fast" score). */
function boxScore(prob: Float32Array, width: number, height: number, box: Quad): number {
  const xs = box.map((p) => p[0]);
  const ys = box.map((p) => p[1]);
  const x0 = Math.max(0, Math.floor(Math.min(...xs)));
  const x1 = Math.min(width - 1, Math.ceil(Math.max(...xs)));
  const y0 = Math.max(0, Math.floor(Math.min(...ys)));
  const y1 = Math.min(height - 1, Math.ceil(Math.max(...ys)));
  let sum = 0;
  let count = 0;
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) {
      if (!insideQuad([x, y], box)) continue;
      sum += prob[y * width + x];
      count++;
    }
  }
  return count > 0 ? sum / count : 0;
}
