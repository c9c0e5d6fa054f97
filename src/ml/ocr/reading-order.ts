import type { Quad } from './types.js';

/**
 * Indices of boxes in reading order: top-to-bottom rows, left-to-right inside a row. A box joins the
 * current row when its vertical centre lies within half the smaller height of the row's first box,
 * which keeps slightly skewed boxes of one line together without merging stacked lines.
 * @example
 * readingOrder([lowerBox, upperRightBox, upperLeftBox]); // [2, 1, 0]
 */
export function readingOrder(boxes: Quad[]): number[] {
  const info = boxes.map((b, i) => {
    const ys = b.map((p) => p[1]);
    const top = Math.min(...ys);
    const bottom = Math.max(...ys);
    return { i, cy: (top + bottom) / 2, h: bottom - top, left: Math.min(...b.map((p) => p[0])) };
  });
  info.sort((a, b) => a.cy - b.cy || a.left - b.left);
  const order: number[] = [];
  let row: typeof info = [];
  const flush = () => {
    row.sort((a, b) => a.left - b.left);
    for (const r of row) order.push(r.i);
    row = [];
  };
  for (const box of info) {
    const head = row[0];
    if (head && Math.abs(box.cy - head.cy) > Math.min(box.h, head.h) / 2) flush();
    row.push(box);
  }
  flush();
  return order;
}
