import ort from '../ort.js';
import { providerOptions } from '../providers.js';
import type { InferenceSession } from 'onnxruntime-node';
import { loadCharset, ocrModelPaths } from './assets.js';

/**
 * The three OCR sessions plus the recogniser's character table.
 * @example
 * const { det, cls, rec, charset }: OcrModels = await getOcrModels();
 */
export interface OcrModels {
  det: InferenceSession;
  cls: InferenceSession;
  rec: InferenceSession;
  charset: string[];
}

const SESSION_OPTIONS: InferenceSession.SessionOptions = {
  // Two cores: one op at a time, both threads inside it.
  intraOpNumThreads: 2,
  interOpNumThreads: 1,
  graphOptimizationLevel: 'all',
};

let loading: Promise<OcrModels> | null = null;
let users = 0;

async function load(): Promise<OcrModels> {
  const paths = ocrModelPaths();
  const [det, cls, rec] = await Promise.all([
    ort.InferenceSession.create(paths.detection, { ...SESSION_OPTIONS, ...providerOptions() }),
    ort.InferenceSession.create(paths.classifier, { ...SESSION_OPTIONS, ...providerOptions() }),
    ort.InferenceSession.create(paths.recognition, { ...SESSION_OPTIONS, ...providerOptions() }),
  ]);
  return { det, cls, rec, charset: loadCharset(paths.dictionary) };
}

/**
 * Registers one user of the shared OCR models; pair with {@link releaseOcrModels}.
 * Loading happens on the first {@link getOcrModels} call, not here.
 * @example
 * retainOcrModels(); const models = await getOcrModels(); await releaseOcrModels();
 */
export function retainOcrModels(): void {
  users += 1;
}

/**
 * The process-wide OCR sessions, created on first use and shared by every OCR instance.
 * @example
 * const { det } = await getOcrModels();
 */
export function getOcrModels(): Promise<OcrModels> {
  if (!loading) {
    loading = load();
    // A failed load must not stick: the next call retries.
    loading.catch(() => {
      loading = null;
    });
  }
  return loading;
}

/**
 * Drops one user; the last one frees the native sessions.
 * @example
 * await releaseOcrModels();
 */
export async function releaseOcrModels(): Promise<void> {
  users = Math.max(0, users - 1);
  if (users > 0 || !loading) return;
  const pending = loading;
  loading = null;
  const models = await pending.catch(() => null);
  if (models) await Promise.all([models.det.release(), models.cls.release(), models.rec.release()]);
}
