import ort from '../ort.js';
import type { InferenceSession } from 'onnxruntime-node';
import { dbBoxes, type DbOptions } from './db-postprocess.js';
import { orderCorners } from './geometry.js';
import { resizeFrame } from './image.js';
import type { Quad, RgbFrame } from './types.js';

/**
 * Detection settings: the resize limit plus the DB post-processing knobs.
 * @example
 * await detectText(session, frame, { maxSideLen: 1280, unclipRatio: 1.8 });
 */
export interface DetectOptions extends Partial<DbOptions> {
  /** Longest side fed to the detector; larger frames are scaled down (PaddleOCR limit_type "max"). */
  maxSideLen?: number;
}

// ImageNet statistics, applied in BGR channel order because PaddleOCR trains on cv2 (BGR) images.
const MEAN_BGR = [0.485, 0.456, 0.406];
const STD_BGR = [0.229, 0.224, 0.225];

/**
 * Detector input size: scaled so the longest side is at most `maxSideLen`, each side rounded to a
 * multiple of 32 (at least 32), as PaddleOCR's DetResizeForTest does.
 * @example
 * detInputSize(1280, 720, 960); // { width: 960, height: 544 }
 */
export function detInputSize(width: number, height: number, maxSideLen: number): { width: number; height: number } {
  const ratio = Math.max(width, height) > maxSideLen ? maxSideLen / Math.max(width, height) : 1;
  const round32 = (v: number) => Math.max(32, Math.round(Math.trunc(v * ratio) / 32) * 32);
  return { width: round32(width), height: round32(height) };
}

/**
 * Finds text boxes in a frame with the PP-OCRv4 DB detector; boxes are in frame pixels.
 * @example
 * const boxes = await detectText(models.det, frame); // [[[x,y],[x,y],[x,y],[x,y]], …]
 */
export async function detectText(session: InferenceSession, frame: RgbFrame, options: DetectOptions = {}): Promise<Quad[]> {
  const size = detInputSize(frame.width, frame.height, options.maxSideLen ?? 960);
  const resized = await resizeFrame(frame, size.width, size.height);
  const input = new ort.Tensor('float32', toDetTensor(resized), [1, 3, size.height, size.width]);
  const result = await session.run({ [session.inputNames[0]]: input });
  const output = result[session.outputNames[0]];
  const [, , mapH, mapW] = output.dims;
  const boxes = dbBoxes(output.data as Float32Array, mapW, mapH, options);
  const sx = frame.width / mapW;
  const sy = frame.height / mapH;
  const out: Quad[] = [];
  for (const { box } of boxes) {
    const scaled = orderCorners(
      box.map(([x, y]) => [clamp(Math.round(x * sx), 0, frame.width - 1), clamp(Math.round(y * sy), 0, frame.height - 1)]),
    );
    // PaddleOCR drops boxes that clipping squashed to 3 pixels or less.
    const w = Math.round(Math.hypot(scaled[0][0] - scaled[1][0], scaled[0][1] - scaled[1][1]));
    const h = Math.round(Math.hypot(scaled[0][0] - scaled[3][0], scaled[0][1] - scaled[3][1]));
    if (w <= 3 || h <= 3) continue;
    out.push(scaled);
  }
  return out;
}

function toDetTensor(frame: RgbFrame): Float32Array {
  const { data, width, height } = frame;
  const plane = width * height;
  const out = new Float32Array(3 * plane);
  for (let c = 0; c < 3; c++) {
    // Plane c of the BGR tensor reads RGB channel 2 - c.
    const src = 2 - c;
    const mean = MEAN_BGR[c];
    const scale = 1 / (255 * STD_BGR[c]);
    const bias = mean / STD_BGR[c];
    const base = c * plane;
    for (let i = 0; i < plane; i++) out[base + i] = data[i * 3 + src] * scale - bias;
  }
  return out;
}

function clamp(v: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, v));
}
