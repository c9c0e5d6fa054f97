import { minAreaRect } from './geometry.js';
import type { Quad } from './types.js';

/** Bounds of a box seen as a horizontal line segment. */
interface Span {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/**
 * Joins boxes that are pieces of one horizontal line. The detector sometimes splits a line at a wide
 * word gap (large slide titles); reading the pieces separately loses the space between them and the
 * reading order of their text. Two boxes merge when both are near-horizontal, overlap vertically by
 * most of the smaller height, have similar heights, and their horizontal gap is under `maxGap` times
 * the smaller height. Merging repeats until nothing changes.
 * @example
 * mergeLineBoxes([quarterlyBox, resultsBox]); // [oneBoxAroundBoth]
 */
export function mergeLineBoxes(boxes: Quad[], maxGap = 0.6): Quad[] {
  const out = [...boxes];
  let merged = true;
  while (merged) {
    merged = false;
    outer: for (let i = 0; i < out.length; i++) {
      for (let j = i + 1; j < out.length; j++) {
        if (!sameLine(out[i], out[j], maxGap)) continue;
        out[i] = minAreaRect([...out[i], ...out[j]]).corners;
        out.splice(j, 1);
        merged = true;
        break outer;
      }
    }
  }
  return out;
}

function sameLine(a: Quad, b: Quad, maxGap: number): boolean {
  if (!horizontal(a) || !horizontal(b)) return false;
  const sa = span(a);
  const sb = span(b);
  const ha = sa.bottom - sa.top;
  const hb = sb.bottom - sb.top;
  const h = Math.min(ha, hb);
  if (h <= 0 || h / Math.max(ha, hb) < 0.7) return false;
  const overlap = Math.min(sa.bottom, sb.bottom) - Math.max(sa.top, sb.top);
  if (overlap < 0.7 * h) return false;
  const gap = Math.max(sa.left, sb.left) - Math.min(sa.right, sb.right);
  return gap <= maxGap * h;
}

/** Top edge within about 5° of horizontal, and wider than tall. */
function horizontal(q: Quad): boolean {
  const dx = q[1][0] - q[0][0];
  const dy = q[1][1] - q[0][1];
  return dx > 0 && Math.abs(dy) <= 0.09 * dx;
}

function span(q: Quad): Span {
  const xs = q.map((p) => p[0]);
  const ys = q.map((p) => p[1]);
  return { left: Math.min(...xs), right: Math.max(...xs), top: Math.min(...ys), bottom: Math.max(...ys) };
}
