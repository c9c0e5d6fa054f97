import type { InferenceSession } from 'onnxruntime-node';
import ort from '../ort.js';
import { providerKey } from '../providers.js';
import { onnxSessionOptions } from '../session-options.js';
import { DEFAULT_MODEL_SETUP, type ModelSetup } from '../assets.js';
import type { RgbFrame } from '../ocr/types.js';
import { faceDetectorPath } from './assets.js';
import { blendOverlaps, decodeHeads, iou, type RawHeads } from './decode.js';
import type { FaceDetection } from './types.js';
import { frameViews, type View } from './views.js';
import { warpToTensor } from './warp.js';

const INPUT = 256;

/** Options for {@link detectFaces}. */
export interface DetectOptions {
  /**
   * Minimum score of the second look (see {@link detectFaces}). Measured on the Debian test photos
   * (scripts/bench-faces.ts): the astronaut and the cameraman score 0.86–0.95 there, while a cat, a logo, a
   * coffee cup, a rocket and a motorbike that pass the first look (0.53–0.78) stay at or below 0.71.
   */
  threshold?: number;
  /** Minimum score of the first look over the whole frame; candidates below it are not looked at again. */
  candidateThreshold?: number;
  /** How many sets of squares to read (see frameViews): 1 is the whole frame only, 2 adds squares of the short side. */
  levels?: number;
  /** The server's model files and providers (VIDX_FACE_DETECTOR, VIDX_ONNX_PROVIDERS). Default: the checkout's model, CPU. */
  setup?: ModelSetup;
}

/**
 * BlazeFace sessions by model file (and providers): a session of an unchanging file is expensive and holds no
 * state between runs, so every server of the process that names the same file shares it on purpose.
 */
const sessions = new Map<string, Promise<InferenceSession>>();

/**
 * The shared BlazeFace session of a setup's model file, created on first use (two threads, one op at a time, like OCR).
 * @example
 * const s = await faceDetectorSession(models.setup); s.inputNames; // ['input:0']
 */
export function faceDetectorSession(setup: ModelSetup = DEFAULT_MODEL_SETUP): Promise<InferenceSession> {
  const file = faceDetectorPath(setup.assets);
  const key = `${file}${providerKey(setup.providers)}`;
  let session = sessions.get(key);
  if (!session) {
    session = ort.InferenceSession.create(file, onnxSessionOptions(setup.providers));
    sessions.set(key, session);
    // A failed load must not stick: the next call retries.
    session.catch(() => sessions.delete(key));
  }
  return session;
}

/** A face that crosses an edge of its square that cuts through the picture is only part of a face. */
function cut(d: FaceDetection, v: View): boolean {
  const m = 0.02;
  return (v.inner.left && d.x < m) || (v.inner.top && d.y < m) || (v.inner.right && d.x + d.width > 1 - m) || (v.inner.bottom && d.y + d.height > 1 - m);
}

function toFrame(d: FaceDetection, v: View): FaceDetection {
  return {
    x: v.x + d.x * v.size,
    y: v.y + d.y * v.size,
    width: d.width * v.size,
    height: d.height * v.size,
    score: d.score,
    keypoints: d.keypoints.map(([kx, ky]) => [v.x + kx * v.size, v.y + ky * v.size]),
  };
}

async function readView(s: InferenceSession, frame: RgbFrame, v: View, threshold: number): Promise<FaceDetection[]> {
  const k = v.size / INPUT;
  const tensor = warpToTensor(frame, [k, 0, v.x, 0, k, v.y], INPUT, INPUT, 1 / 127.5, -1);
  const out = await s.run({ [s.inputNames[0]]: new ort.Tensor('float32', tensor, [1, INPUT, INPUT, 3]) });
  const [s1, s2, b1, b2] = s.outputNames.map((n) => out[n].data as Float32Array);
  const raw: RawHeads = [{ scores: s1, boxes: b1 }, { scores: s2, boxes: b2 }];
  return blendOverlaps(decodeHeads(raw, INPUT, threshold))
    .filter((d) => !cut(d, v))
    .map((d) => toFrame(d, v));
}

/** Context around a candidate for the second look, in face widths: BlazeFace is surest with the face at a third to half of its input. */
const SECOND_LOOK = [2, 3];

async function secondLook(s: InferenceSession, frame: RgbFrame, d: FaceDetection): Promise<FaceDetection | null> {
  const cx = d.x + d.width / 2;
  const cy = d.y + d.height / 2;
  let best: FaceDetection | null = null;
  for (const k of SECOND_LOOK) {
    const size = Math.max(d.width, d.height) * k;
    const v: View = { x: cx - size / 2, y: cy - size / 2, size, inner: { left: false, top: false, right: false, bottom: false } };
    const same = (await readView(s, frame, v, 0.3)).filter((x) => iou(x, d) >= 0.3).sort((p, q) => q.score - p.score)[0];
    if (same && (!best || same.score > best.score)) best = same;
  }
  return best;
}

/**
 * Faces in one RGB frame with the shipped BlazeFace model, in frame pixels, best first. The first look reads
 * the whole frame and overlapping squares (small faces) and keeps loose candidates; the second look reads
 * each candidate again centred, with two and three face widths of context, and keeps it only if that scores
 * above `threshold`. One look alone does not separate faces from cats and logos (both 0.5–0.9); two do.
 * @example
 * const faces = await detectFaces({ data, width: 1280, height: 720 });
 * faces[0]; // { x: 512, y: 140, width: 96, height: 96, score: 0.99, keypoints: [...] }
 */
export async function detectFaces(frame: RgbFrame, opts: DetectOptions = {}): Promise<FaceDetection[]> {
  const threshold = opts.threshold ?? 0.8;
  const s = await faceDetectorSession(opts.setup);
  const found: FaceDetection[] = [];
  for (const v of frameViews(frame.width, frame.height, opts.levels ?? 2)) found.push(...(await readView(s, frame, v, opts.candidateThreshold ?? 0.5)));
  const confirmed: FaceDetection[] = [];
  for (const d of blendOverlaps(found)) {
    if (d.width < 8 || d.height < 8) continue;
    const again = await secondLook(s, frame, d);
    if (again && again.score >= threshold) confirmed.push(again);
  }
  return blendOverlaps(confirmed);
}
