import ort from '../ort.js';
import { providerKey } from '../providers.js';
import { onnxSessionOptions } from '../session-options.js';
import { DEFAULT_MODEL_SETUP, type ModelSetup } from '../assets.js';
import type { InferenceSession } from 'onnxruntime-node';
import { loadCharset, ocrModelPaths } from './assets.js';

/**
 * The three OCR sessions plus the recogniser's character table.
 * @example
 * const { det, cls, rec, charset }: OcrModels = await getOcrModels(setup);
 */
export interface OcrModels {
  det: InferenceSession;
  cls: InferenceSession;
  rec: InferenceSession;
  charset: string[];
}

/** One set of OCR sessions: loading or loaded, and how many engines hold it. */
interface Shared {
  loading: Promise<OcrModels> | null;
  users: number;
}

/**
 * OCR sessions by model folder (and providers): sessions of unchanging files, expensive to make and free of
 * state between runs, so every engine of the process that reads the same files shares them on purpose.
 */
const shared = new Map<string, Shared>();

function keyOf(setup: ModelSetup): string {
  return `${ocrModelPaths(setup.assets).detection}${providerKey(setup.providers)}`;
}

function entry(setup: ModelSetup): Shared {
  const key = keyOf(setup);
  let e = shared.get(key);
  if (!e) {
    e = { loading: null, users: 0 };
    shared.set(key, e);
  }
  return e;
}

async function load(setup: ModelSetup): Promise<OcrModels> {
  const paths = ocrModelPaths(setup.assets);
  const options = onnxSessionOptions(setup.providers);
  const [det, cls, rec] = await Promise.all([
    ort.InferenceSession.create(paths.detection, options),
    ort.InferenceSession.create(paths.classifier, options),
    ort.InferenceSession.create(paths.recognition, options),
  ]);
  return { det, cls, rec, charset: loadCharset(paths.dictionary) };
}

/**
 * Registers one user of the shared OCR models of a setup; pair with {@link releaseOcrModels}.
 * Loading happens on the first {@link getOcrModels} call, not here.
 * @example
 * retainOcrModels(setup); const models = await getOcrModels(setup); await releaseOcrModels(setup);
 */
export function retainOcrModels(setup: ModelSetup = DEFAULT_MODEL_SETUP): void {
  entry(setup).users += 1;
}

/**
 * The shared OCR sessions of a setup's model files, created on first use and shared by every OCR instance.
 * @example
 * const { det } = await getOcrModels(setup);
 */
export function getOcrModels(setup: ModelSetup = DEFAULT_MODEL_SETUP): Promise<OcrModels> {
  const e = entry(setup);
  if (!e.loading) {
    const loading = load(setup);
    e.loading = loading;
    // A failed load must not stick: the next call retries.
    loading.catch(() => {
      if (e.loading === loading) e.loading = null;
    });
  }
  return e.loading;
}

/**
 * Drops one user; the last one frees the native sessions.
 * @example
 * await releaseOcrModels(setup);
 */
export async function releaseOcrModels(setup: ModelSetup = DEFAULT_MODEL_SETUP): Promise<void> {
  const e = entry(setup);
  e.users = Math.max(0, e.users - 1);
  if (e.users > 0 || !e.loading) return;
  const pending = e.loading;
  e.loading = null;
  const models = await pending.catch(() => null);
  if (models) await Promise.all([models.det.release(), models.cls.release(), models.rec.release()]);
}
