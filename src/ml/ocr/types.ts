/**
 * A point in image pixel coordinates: `[x, y]`.
 * @example
 * const p: Point = [120, 48];
 */
export type Point = [number, number];

/**
 * Four corners of a text box: top-left, top-right, bottom-right, bottom-left (clockwise).
 * @example
 * const q: Quad = [[10, 5], [300, 5], [300, 40], [10, 40]];
 */
export type Quad = [Point, Point, Point, Point];

/**
 * A decoded frame: tightly packed 8-bit RGB, row-major, `width * height * 3` bytes.
 * @example
 * const frame: RgbFrame = { data: new Uint8Array(640 * 360 * 3), width: 640, height: 360 };
 */
export interface RgbFrame {
  data: Uint8Array;
  width: number;
  height: number;
}

/**
 * One recognised line of text.
 * @example
 * const line: OcrLine = { text: 'Quarterly Results 2024', confidence: 0.98, box: [[10, 5], [300, 5], [300, 40], [10, 40]] };
 */
export interface OcrLine {
  text: string;
  /** Mean per-character probability from the recogniser, 0..1. */
  confidence: number;
  /** Corners in the input image's pixel coordinates, clockwise from top-left. */
  box: Quad;
}
