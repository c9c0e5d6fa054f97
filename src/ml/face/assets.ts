import type { ModelAssetPaths } from '../assets.js';
import { fileURLToPath } from 'node:url';

/**
 * Where the shipped BlazeFace model is: `models/blazeface/` of the checkout (see its NOTICE), or the file
 * `VIDX_FACE_DETECTOR` names (the single binary points it at its extracted copy).
 * @example
 * faceDetectorPath(setup.assets); // '…/models/blazeface/face_detection_back_256x256_barracuda.onnx'
 */
export function faceDetectorPath(assets: Readonly<ModelAssetPaths> = {}): string {
  const set = assets.faceDetector;
  if (set) return set;
  return fileURLToPath(new URL('../../../models/blazeface/face_detection_back_256x256_barracuda.onnx', import.meta.url));
}
