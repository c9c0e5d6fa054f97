import ort from '../ort.js';
import type { InferenceSession } from 'onnxruntime-node';
import { sampleQuad } from './crop.js';
import type { Quad, RgbFrame } from './types.js';

const CLS_H = 48;
const CLS_W = 192;

/**
 * Which crops the PP-OCR direction classifier reads as upside down (label "180" above `threshold`,
 * 0.9 in PaddleOCR). Crops are expected in reading orientation already (tall boxes turned).
 * @example
 * const flip = await upsideDown(models.cls, frame, boxes); // [false, true, …]
 */
export async function upsideDown(session: InferenceSession, frame: RgbFrame, quads: Quad[], threshold = 0.9, batchSize = 8): Promise<boolean[]> {
  const flags: boolean[] = [];
  for (let start = 0; start < quads.length; start += batchSize) {
    const batch = quads.slice(start, start + batchSize);
    const tensor = new Float32Array(batch.length * 3 * CLS_H * CLS_W);
    batch.forEach((q, i) => {
      sampleQuad(frame, q, tensor, i, CLS_H, CLS_W);
    });
    const input = new ort.Tensor('float32', tensor, [batch.length, 3, CLS_H, CLS_W]);
    const result = await session.run({ [session.inputNames[0]]: input });
    const probs = result[session.outputNames[0]].data as Float32Array;
    for (let i = 0; i < batch.length; i++) flags.push(probs[i * 2 + 1] > probs[i * 2] && probs[i * 2 + 1] > threshold);
  }
  return flags;
}
