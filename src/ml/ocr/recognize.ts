import ort from '../ort.js';
import type { InferenceSession } from 'onnxruntime-node';
import { sampleQuad } from './crop.js';
import { ctcGreedy, type CtcResult } from './ctc.js';
import { quadSize } from './geometry.js';
import { inkProfile, withWordSpaces } from './word-gaps.js';
import type { Quad, RgbFrame } from './types.js';

const REC_H = 48;
/** PaddleOCR's rec_image_shape width: narrower lines are padded up to it. */
const REC_MIN_W = 320;

/**
 * Reads each (upright) quad with the PP-OCRv4 recogniser. Lines are batched by similar aspect ratio,
 * each batch padded to its widest line, as PaddleOCR does; results come back in input order. Spaces the
 * model dropped are put back where the crop shows a word-sized gap (see word-gaps.ts).
 * @example
 * const lines = await recognizeLines(models.rec, models.charset, frame, boxes); // [{ text, confidence }]
 */
export async function recognizeLines(
  session: InferenceSession,
  charset: string[],
  frame: RgbFrame,
  quads: Quad[],
  batchSize = 6,
): Promise<CtcResult[]> {
  const ratios = quads.map((q) => {
    const { width, height } = quadSize(q);
    return width / Math.max(1, height);
  });
  const order = quads.map((_, i) => i).sort((a, b) => ratios[a] - ratios[b]);
  const results: CtcResult[] = new Array(quads.length);
  for (let start = 0; start < order.length; start += batchSize) {
    const batch = order.slice(start, start + batchSize);
    const maxRatio = Math.max(REC_MIN_W / REC_H, ...batch.map((i) => ratios[i]));
    const tensorW = Math.ceil(REC_H * maxRatio);
    const tensor = new Float32Array(batch.length * 3 * REC_H * tensorW);
    const widths = batch.map((qi, slot) => sampleQuad(frame, quads[qi], tensor, slot, REC_H, tensorW));
    const input = new ort.Tensor('float32', tensor, [batch.length, 3, REC_H, tensorW]);
    const output = (await session.run({ [session.inputNames[0]]: input }))[session.outputNames[0]];
    const [, steps, classes] = output.dims;
    const probs = output.data as Float32Array;
    batch.forEach((qi, slot) => {
      const read = ctcGreedy(probs, steps, classes, charset, slot * steps * classes);
      const profile = inkProfile(tensor, slot, REC_H, tensorW, widths[slot]);
      results[qi] = { ...read, text: withWordSpaces(read, profile, tensorW / steps) };
    });
  }
  return results;
}
