import { upsideDown } from './classify.js';
import { detectText, type DetectOptions } from './detect.js';
import { quadSize } from './geometry.js';
import { rotateQuad } from './crop.js';
import { toRgbFrame } from './image.js';
import { mergeLineBoxes } from './line-merge.js';
import { readingOrder } from './reading-order.js';
import { recognizeLines } from './recognize.js';
import { getOcrModels, releaseOcrModels, retainOcrModels } from './sessions.js';
import type { OcrLine, Quad, RgbFrame } from './types.js';

/**
 * Shapes of OCR input and output, and where the models live.
 * @example
 * import { createOcr, type OcrLine } from './ml/ocr/index.js';
 */
export type { OcrLine, Point, Quad, RgbFrame } from './types.js';
export { ocrModelPaths } from './assets.js';

/**
 * OCR settings; every field is optional and defaults to PaddleOCR's PP-OCRv4 inference values (unclip ratio aside).
 * @example
 * const ocr = createOcr({ maxSideLen: 1280, useAngleClassifier: false, minConfidence: 0.7 });
 */
export interface OcrOptions {
  /** Detector resize limit for the longest side (default 960). */
  maxSideLen?: number;
  /** DB post-processing: pixel threshold (0.3), box threshold (0.6), unclip ratio (2.0). */
  detection?: Omit<DetectOptions, 'maxSideLen'>;
  /** Run the 0°/180° direction classifier on each line (default true). */
  useAngleClassifier?: boolean;
  /** Lines whose recognition confidence is below this are dropped (default 0.5). */
  minConfidence?: number;
}

/**
 * An OCR engine over the shared PP-OCRv4 sessions.
 * @example
 * const ocr = createOcr();
 * const lines = await ocr.recognize(await readFile('frame.jpg'));
 * await ocr.close();
 */
export interface Ocr {
  /** Reads every text line in a decoded RGB frame or an encoded image, in reading order. */
  recognize(image: RgbFrame | Buffer | Uint8Array): Promise<OcrLine[]>;
  /** Releases this engine's hold on the shared sessions; the last holder frees them. */
  close(): Promise<void>;
}

/**
 * Creates an OCR engine. Models load on the first `recognize`, once per process, and are shared by
 * all engines. Text is PP-OCRv4's Chinese/English character set (6623 characters plus space).
 * @example
 * const ocr = createOcr({ minConfidence: 0.6 });
 * for (const line of await ocr.recognize({ data: rgb, width: 1280, height: 720 })) console.log(line.text);
 * await ocr.close();
 */
export function createOcr(options: OcrOptions = {}): Ocr {
  retainOcrModels();
  let closed = false;
  const minConfidence = options.minConfidence ?? 0.5;
  const detectOptions: DetectOptions = { ...options.detection, maxSideLen: options.maxSideLen ?? 960 };

  return {
    async recognize(image) {
      if (closed) throw new Error('OCR engine is closed');
      const frame = await toRgbFrame(image);
      const models = await getOcrModels();
      const detected = mergeLineBoxes(await detectText(models.det, frame, detectOptions));
      if (detected.length === 0) return [];
      // Tall boxes are read as vertical text turned a quarter, as PaddleOCR does.
      let crops: Quad[] = detected.map((q) => {
        const { width, height } = quadSize(q);
        return height / Math.max(1, width) >= 1.5 ? rotateQuad(q, 90) : q;
      });
      if (options.useAngleClassifier ?? true) {
        const flip = await upsideDown(models.cls, frame, crops);
        crops = crops.map((q, i) => (flip[i] ? rotateQuad(q, 180) : q));
      }
      const texts = await recognizeLines(models.rec, models.charset, frame, crops);
      const lines: OcrLine[] = [];
      for (const i of readingOrder(detected)) {
        const text = texts[i].text.trim();
        if (!text || texts[i].confidence < minConfidence) continue;
        lines.push({ text, confidence: texts[i].confidence, box: detected[i] });
      }
      return lines;
    },
    async close() {
      if (closed) return;
      closed = true;
      await releaseOcrModels();
    },
  };
}
