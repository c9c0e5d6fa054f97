/**
 * Which model files and which ONNX Runtime providers a server's sessions use. Made once at start from the
 * Config (src/startup/analysis.ts, each analysis thread from its settings, `vidx worker`) and carried by its
 * ModelRuntime down to every loader, so two servers in one process each load their own.
 */
import type { OnnxProviders } from './providers.js';

/** Shipped model files named by a setting (VIDX_OCR_MODELS …; src/config.ts checked they exist); unset ones come from their npm packages or the checkout. */
export interface ModelAssetPaths {
  ocrModels?: string;
  sileroVad?: string;
  faceDetector?: string;
}

/**
 * The model settings of one server: where the shipped models are and which providers its sessions ask for.
 * @example
 * const setup: ModelSetup = { assets: config.modelAssets, providers: config.onnxProviders };
 */
export interface ModelSetup {
  assets: Readonly<ModelAssetPaths>;
  providers: OnnxProviders;
}

/**
 * No setting: the models of the npm packages and the checkout, on the CPU (library and test use).
 * @example
 * sileroSession(DEFAULT_MODEL_SETUP.assets);
 */
export const DEFAULT_MODEL_SETUP: ModelSetup = Object.freeze({ assets: Object.freeze({}), providers: 'cpu' });
