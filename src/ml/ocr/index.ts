import type { MediaTools } from '../../media/binaries.js';
import { DEFAULT_MODEL_SETUP, type ModelSetup } from '../assets.js';
import { upsideDown } from './classify.js';
import { detectText, type DetectOptions } from './detect.js';
import { quadSize } from './geometry.js';
import { rotateQuad } from './crop.js';
import { toRgbFrame } from './image.js';
import { mergeLineBoxes } from './line-merge.js';
import { readingOrder } from './reading-order.js';
import { recognizeLines } from './recognize.js';
import { getOcrModels, releaseOcrModels, retainOcrModels } from './sessions.js';
import { addGermanLetters } from './german-pass.js';
import { germanTesseract } from './tesseract.js';
import type { OcrLine, Quad, RgbFrame } from './types.js';
import type { Lang } from '../../messages/index.js';

/**
 * Shapes of OCR input and output, and where the models live.
 * @example
 * import { createOcr, type OcrLine } from './ml/ocr/index.js';
 */
export type { OcrLine, Point, Quad, RgbFrame } from './types.js';
export { ocrModelPaths } from './assets.js';
export { germanTesseract, primeGermanTesseract, type GermanTesseract } from './tesseract.js';

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
  /**
   * Tesseract executable (with its `deu` model) for the German second pass; `null` turns the pass off.
   * Default: what {@link germanTesseract} finds.
   */
  tesseractPath?: string | null;
  /** Where the server's tools are (TESSERACT_PATH), for the default Tesseract. */
  tools?: MediaTools;
  /** The server's model files and providers (VIDX_OCR_MODELS, VIDX_ONNX_PROVIDERS); default: the npm package's, CPU. */
  setup?: ModelSetup;
}

/**
 * Per-call settings of {@link Ocr.recognize}.
 * @example
 * await ocr.recognize(frame, { language: 'de' });
 */
export interface RecognizeOptions {
  /** The video's language. `de` re-reads every line for German letters; otherwise only lines that look German are. */
  language?: Lang;
  /** Aborting kills a running Tesseract pass. */
  signal?: AbortSignal;
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
  recognize(image: RgbFrame | Buffer | Uint8Array, options?: RecognizeOptions): Promise<OcrLine[]>;
  /** Releases this engine's hold on the shared sessions; the last holder frees them. */
  close(): Promise<void>;
}

/**
 * Creates an OCR engine. Models load on the first `recognize`, once per model folder, and are shared by
 * all engines. Text is PP-OCRv4's Chinese/English character set (6623 characters plus space); German
 * letters it lacks come from a Tesseract second pass over its line boxes when Tesseract is installed.
 * @example
 * const ocr = createOcr({ minConfidence: 0.6 });
 * for (const line of await ocr.recognize({ data: rgb, width: 1280, height: 720 })) console.log(line.text);
 * await ocr.close();
 */
export function createOcr(options: OcrOptions = {}): Ocr {
  const setup = options.setup ?? DEFAULT_MODEL_SETUP;
  retainOcrModels(setup);
  let closed = false;
  const minConfidence = options.minConfidence ?? 0.5;
  const detectOptions: DetectOptions = { ...options.detection, maxSideLen: options.maxSideLen ?? 960 };
  const tesseract = () => (options.tesseractPath === undefined ? germanTesseract(options.tools).path : options.tesseractPath);

  return {
    async recognize(image, call = {}) {
      if (closed) throw new Error('OCR engine is closed');
      const frame = await toRgbFrame(image);
      const models = await getOcrModels(setup);
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
      const boxes: Quad[] = [];
      for (const i of readingOrder(detected)) {
        const text = texts[i].text.trim();
        if (!text || texts[i].confidence < minConfidence) continue;
        lines.push({ text, confidence: texts[i].confidence, box: detected[i] });
        boxes.push(crops[i]);
      }
      return addGermanLetters(frame, lines, boxes, { ...call, tesseractPath: tesseract() });
    },
    async close() {
      if (closed) return;
      closed = true;
      await releaseOcrModels(setup);
    },
  };
}
