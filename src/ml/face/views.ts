/**
 * A square part of a frame the detector looks at, in frame pixels; it may reach past the frame (padding).
 * `inner` lists which of its edges cut through the picture, where a face can be cut in half.
 * @example
 * const v: View = { x: 0, y: -280, size: 1280, inner: { left: false, top: false, right: false, bottom: false } };
 */
export interface View {
  x: number;
  y: number;
  size: number;
  inner: { left: boolean; top: boolean; right: boolean; bottom: boolean };
}

/** Start positions of `n` squares of side `size` spread evenly over `length` (first at 0, last at the end). */
function spread(length: number, size: number): number[] {
  if (size >= length) return [(length - size) / 2];
  const n = Math.ceil((length - size) / (size * 0.75)) + 1;
  return Array.from({ length: n }, (_, i) => Math.round(((length - size) * i) / (n - 1)));
}

/**
 * The squares one frame is read in: the whole frame padded to a square (large faces), then squares of the
 * short side, then of half the short side, each set overlapping by at least a quarter (small faces; BlazeFace
 * sees a 256 px input, so a face must be about 20 px there). `levels` caps how many sets are used; a set is
 * skipped when its squares would be smaller than `minSquare` frame pixels (already sharp enough at 256).
 * @example
 * frameViews(1280, 720, 2).length; // 3: the whole frame and two 720 px squares
 */
export function frameViews(width: number, height: number, levels = 2, minSquare = 320): View[] {
  const long = Math.max(width, height);
  const short = Math.min(width, height);
  const whole: View = { x: (width - long) / 2, y: (height - long) / 2, size: long, inner: { left: false, top: false, right: false, bottom: false } };
  const views: View[] = [whole];
  for (let level = 1; level < levels; level++) {
    const size = Math.round(short / 2 ** (level - 1));
    if (size < minSquare || (level === 1 && size >= long)) continue;
    for (const y of spread(height, size)) {
      for (const x of spread(width, size)) {
        views.push({ x, y, size, inner: { left: x > 0, top: y > 0, right: x + size < width, bottom: y + size < height } });
      }
    }
  }
  return views;
}
