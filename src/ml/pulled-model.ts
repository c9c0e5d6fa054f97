/**
 * Whether a pulled model of one capability is in the models dir, read from the manifest and the files alone: the
 * search threads ask it for their notices, so it stays apart from capabilities.ts, whose shipped-model checks
 * reach the ONNX runtime and sharp (15–20 MB in each search thread, which never runs a model; 2026-11-30).
 */
import type { MediaTools } from '../media/binaries.js';
import type { ModelAssetPaths } from './assets.js';
import { capabilityModel, pullHint } from './registry/local.js';
import { getModel, loadManifest, type Capability, type Manifest } from './registry/manifest.js';
import { modelStatus } from './registry/status.js';

export interface CapabilityStatus {
  available: boolean;
  model?: string;
  reason?: string;
}

export interface CapabilityOptions {
  manifest?: Manifest;
  /** Use these model ids instead of the manifest defaults. */
  models?: Partial<Record<Capability, string>>;
  /** The server's tools (TESSERACT_PATH); default: PATH. */
  tools?: MediaTools;
  /** The server's shipped model files (VIDX_OCR_MODELS …); default: the npm packages' and the checkout's. */
  assets?: Readonly<ModelAssetPaths>;
}

/**
 * One pulled capability's status, without looking at the others (a search asks for two on its way).
 * @example
 * pulledModel('/data/models', 'image_text', {});
 * // { available: false, model: 'clip-vit-base-patch32', reason: 'missing: run `vidx models pull clip-vit-base-patch32`' }
 */
export function pulledModel(modelsDir: string, capability: Capability, opts: CapabilityOptions): CapabilityStatus {
  const manifest = opts.manifest ?? loadManifest();
  const id = opts.models?.[capability];
  const entry = id ? getModel(manifest, id) : capabilityModel(manifest, capability, modelsDir);
  if (!entry) return { available: false, reason: `no ${capability} model in the manifest` };
  const state = modelStatus(entry, modelsDir).state;
  if (state === 'installed') return { available: true, model: entry.id };
  const what = state === 'partial' ? 'partially downloaded' : 'missing';
  return { available: false, model: entry.id, reason: `${what}: run \`${pullHint(entry.id)}\`` };
}
