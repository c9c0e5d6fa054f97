import type { InferenceSession } from 'onnxruntime-node';
import ort from '../ort.js';
import { providerKey } from '../providers.js';
import { onnxSessionOptions } from '../session-options.js';
import type { RgbFrame } from '../ocr/types.js';
import { l2normalize } from '../embed/vectors.js';
import { requireInstalledModel, sharedModel, type ModelChoice } from '../registry/local.js';
import { ALIGNED_SIZE, alignFace } from './align.js';
import type { FaceDetection } from './types.js';
import { warpToTensor } from './warp.js';

/**
 * Faces smaller than this (box width, frame pixels) are not embedded: below it the aligned 112 px crop is
 * mostly interpolation and same-person similarities fall apart.
 * @example
 * faces.filter((f) => f.width >= MIN_EMBED_SIZE);
 */
export const MIN_EMBED_SIZE = 40;

/**
 * The same-person cosine of a face embedder whose manifest entry names none. OpenCV Zoo gives 0.363 as SFace's
 * threshold for two faces; a person's centre averages many, which sits closer to each of its faces. The
 * threshold belongs to the model: face-api's 128-D network, measured, needs ~0.95 (docs/performance.md, Faces).
 * @example
 * const threshold = entry.samePersonCosine ?? DEFAULT_SAME_PERSON;
 */
export const DEFAULT_SAME_PERSON = 0.45;

/**
 * A pulled face embedder (SFace or its stand-in): one unit vector per aligned face.
 * @example
 * const e = await loadFaceEmbedder({ modelsDir }); const [v] = await e.embed(frame, [face]);
 */
export interface FaceEmbedder {
  modelId: string;
  dims: number;
  /** Cosine to a person's centre at or above which a face is that person (the manifest's samePersonCosine). */
  samePerson: number;
  embed(frame: RgbFrame, faces: Array<Pick<FaceDetection, 'keypoints'>>): Promise<Float32Array[]>;
}

/** NHWC (warpToTensor's layout) to NCHW (SFace's). */
function toPlanes(hwc: Float32Array, size: number): Float32Array {
  const plane = size * size;
  const out = new Float32Array(3 * plane);
  for (let i = 0; i < plane; i++) {
    out[i] = hwc[i * 3];
    out[plane + i] = hwc[i * 3 + 1];
    out[2 * plane + i] = hwc[i * 3 + 2];
  }
  return out;
}

class SfaceEmbedder implements FaceEmbedder {
  constructor(readonly modelId: string, readonly dims: number, readonly samePerson: number, private readonly session: InferenceSession) {}

  async embed(frame: RgbFrame, faces: Array<Pick<FaceDetection, 'keypoints'>>): Promise<Float32Array[]> {
    const s = this.session;
    const out: Float32Array[] = [];
    // One face per run: SFace's ONNX graph has a fixed batch of 1.
    for (const face of faces) {
      const hwc = warpToTensor(frame, alignFace(face), ALIGNED_SIZE, ALIGNED_SIZE, 1, 0);
      const res = await s.run({ [s.inputNames[0]]: new ort.Tensor('float32', toPlanes(hwc, ALIGNED_SIZE), [1, 3, ALIGNED_SIZE, ALIGNED_SIZE]) });
      out.push(l2normalize(Float32Array.from(res[s.outputNames[0]].data as Float32Array)));
    }
    return out;
  }
}

/**
 * The installed face embedder of the manifest (default or `choice.modelId`), loaded once and shared.
 * Throws ModelNotInstalledError when it has not been pulled.
 * @example
 * const embedder = await loadFaceEmbedder({ modelsDir: '/data/models' });
 */
export function loadFaceEmbedder(choice: ModelChoice): Promise<FaceEmbedder> {
  const { entry, dir } = requireInstalledModel(choice, 'face_embedding');
  const file = `${dir}/${entry.files[0].path}`;
  // The session is shared per file; the threshold comes from whichever manifest entry names it.
  return sharedModel(`face_embedding:${file}${providerKey(choice.providers ?? 'cpu')}`, () =>
    ort.InferenceSession.create(file, onnxSessionOptions(choice.providers ?? 'cpu')),
  ).then((session) => new SfaceEmbedder(entry.id, entry.dimensions ?? 128, entry.samePersonCosine ?? DEFAULT_SAME_PERSON, session));
}
