import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Where the shipped BlazeFace model is: `models/blazeface/` of the checkout (see its NOTICE), or the file
 * `VIDX_FACE_DETECTOR` names (the single binary points it at its extracted copy).
 * @example
 * faceDetectorPath(); // '…/models/blazeface/face_detection_back_256x256_barracuda.onnx'
 */
export function faceDetectorPath(): string {
  const env = process.env.VIDX_FACE_DETECTOR;
  if (env) {
    if (!existsSync(env)) throw new Error(`VIDX_FACE_DETECTOR points to a missing file: ${env}`);
    return env;
  }
  return fileURLToPath(new URL('../../../models/blazeface/face_detection_back_256x256_barracuda.onnx', import.meta.url));
}
