import type { Point, Quad } from './types.js';

/**
 * A rotated rectangle: its corners (clockwise from top-left) and side lengths.
 * @example
 * const { corners, width, height }: RotatedRect = minAreaRect(points);
 */
export interface RotatedRect {
  corners: Quad;
  /** Length of the side along the rectangle's first axis. */
  width: number;
  height: number;
}

/**
 * Convex hull (Andrew's monotone chain), counter-clockwise in y-down coordinates, no repeated points.
 * @example
 * convexHull([[0, 0], [2, 0], [1, 1], [2, 2], [0, 2]]); // [[0,0],[2,0],[2,2],[0,2]] in some rotation
 */
export function convexHull(points: Point[]): Point[] {
  const pts = [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (pts.length < 3) return pts;
  const cross = (o: Point, a: Point, b: Point) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const lower: Point[] = [];
  for (const p of pts) {
    while (lower.length >= 2 && cross(lower[lower.length - 2], lower[lower.length - 1], p) <= 0) lower.pop();
    lower.push(p);
  }
  const upper: Point[] = [];
  for (let i = pts.length - 1; i >= 0; i--) {
    const p = pts[i];
    while (upper.length >= 2 && cross(upper[upper.length - 2], upper[upper.length - 1], p) <= 0) upper.pop();
    upper.push(p);
  }
  lower.pop();
  upper.pop();
  return lower.concat(upper);
}

/**
 * Minimum-area enclosing rectangle of a point set (rotating one hull edge at a time, like OpenCV's minAreaRect).
 * Degenerate sets (fewer than three hull points) give a zero-height rectangle.
 * @example
 * const { width, height } = minAreaRect([[0, 0], [10, 0], [10, 2], [0, 2]]); // 10 x 2
 */
export function minAreaRect(points: Point[]): RotatedRect {
  const hull = convexHull(points);
  if (hull.length === 0) throw new Error('minAreaRect of no points');
  let best: { area: number; ux: number; uy: number; minU: number; maxU: number; minV: number; maxV: number } | null = null;
  const edges = hull.length === 1 ? 1 : hull.length;
  for (let i = 0; i < edges; i++) {
    const a = hull[i];
    const b = hull[(i + 1) % hull.length];
    let ux = b[0] - a[0];
    let uy = b[1] - a[1];
    const len = Math.hypot(ux, uy);
    if (len === 0) {
      ux = 1;
      uy = 0;
    } else {
      ux /= len;
      uy /= len;
    }
    let minU = Infinity, maxU = -Infinity, minV = Infinity, maxV = -Infinity;
    for (const p of hull) {
      const u = p[0] * ux + p[1] * uy;
      const v = -p[0] * uy + p[1] * ux;
      if (u < minU) minU = u;
      if (u > maxU) maxU = u;
      if (v < minV) minV = v;
      if (v > maxV) maxV = v;
    }
    const area = (maxU - minU) * (maxV - minV);
    if (!best || area < best.area) best = { area, ux, uy, minU, maxU, minV, maxV };
  }
  const r = best!;
  const at = (u: number, v: number): Point => [u * r.ux - v * r.uy, u * r.uy + v * r.ux];
  const corners = orderCorners([at(r.minU, r.minV), at(r.maxU, r.minV), at(r.maxU, r.maxV), at(r.minU, r.maxV)]);
  return { corners, width: r.maxU - r.minU, height: r.maxV - r.minV };
}

/**
 * Orders four corners as top-left, top-right, bottom-right, bottom-left: the two leftmost points
 * give the left side (upper one first), the other two the right side (PaddleOCR's get_mini_boxes rule).
 * @example
 * orderCorners([[10, 10], [0, 0], [10, 0], [0, 10]]); // [[0,0],[10,0],[10,10],[0,10]]
 */
export function orderCorners(points: Point[]): Quad {
  const byX = [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const [l1, l2, r1, r2] = byX;
  const [tl, bl] = l1[1] <= l2[1] ? [l1, l2] : [l2, l1];
  const [tr, br] = r1[1] <= r2[1] ? [r1, r2] : [r2, r1];
  return [tl, tr, br, bl];
}

/**
 * Grows a rotated rectangle by `distance` on every side, keeping centre and angle. For a rectangle
 * this equals PaddleOCR's polygon offset followed by a new min-area rectangle (rounded corners do
 * not change the enclosing rectangle).
 * @example
 * expandRect([[0, 0], [10, 0], [10, 2], [0, 2]], 1); // [[-1,-1],[11,-1],[11,3],[-1,3]]
 */
export function expandRect(corners: Quad, distance: number): Quad {
  const [p0, p1, , p3] = corners;
  const w = Math.hypot(p1[0] - p0[0], p1[1] - p0[1]);
  const h = Math.hypot(p3[0] - p0[0], p3[1] - p0[1]);
  const ux = w > 0 ? (p1[0] - p0[0]) / w : 1;
  const uy = w > 0 ? (p1[1] - p0[1]) / w : 0;
  // v is u turned a quarter clockwise in y-down space, i.e. pointing from top edge to bottom edge.
  const vx = h > 0 ? (p3[0] - p0[0]) / h : -uy;
  const vy = h > 0 ? (p3[1] - p0[1]) / h : ux;
  const o: Point = [p0[0] - distance * (ux + vx), p0[1] - distance * (uy + vy)];
  const W = w + 2 * distance;
  const H = h + 2 * distance;
  return orderCorners([
    o,
    [o[0] + W * ux, o[1] + W * uy],
    [o[0] + W * ux + H * vx, o[1] + W * uy + H * vy],
    [o[0] + H * vx, o[1] + H * vy],
  ]);
}

/**
 * Whether a point lies inside or on a convex quadrilateral (corners in either winding order).
 * @example
 * insideQuad([5, 1], [[0, 0], [10, 0], [10, 2], [0, 2]]); // true
 */
export function insideQuad(p: Point, q: Quad): boolean {
  let sign = 0;
  for (let i = 0; i < 4; i++) {
    const a = q[i];
    const b = q[(i + 1) % 4];
    const c = (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]);
    if (Math.abs(c) < 1e-9) continue;
    const s = c > 0 ? 1 : -1;
    if (sign === 0) sign = s;
    else if (s !== sign) return false;
  }
  return true;
}

/**
 * Side lengths of a quad as PaddleOCR measures a crop: the longer of each pair of opposite sides.
 * @example
 * quadSize([[0, 0], [10, 0], [10, 2], [0, 2]]); // { width: 10, height: 2 }
 */
export function quadSize(q: Quad): { width: number; height: number } {
  const d = (a: Point, b: Point) => Math.hypot(a[0] - b[0], a[1] - b[1]);
  return { width: Math.max(d(q[0], q[1]), d(q[2], q[3])), height: Math.max(d(q[0], q[3]), d(q[1], q[2])) };
}
