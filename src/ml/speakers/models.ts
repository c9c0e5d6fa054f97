/**
 * The pulled pair that tells voices apart better than the model-free default: a segmentation model
 * (pyannote segmentation-3.0: who of up to three local speakers talks in each ~17 ms frame of a 10 s
 * chunk) and a speaker embedder (WeSpeaker ResNet34: one vector per stretch of one voice). Plain ONNX
 * Runtime sessions, so they load in an analysis thread and inside the single binary alike.
 */
import type { InferenceSession } from 'onnxruntime-node';
import ort from '../ort.js';
import { providerKey } from '../providers.js';
import { onnxSessionOptions } from '../session-options.js';
import { l2normalize } from '../embed/vectors.js';
import { requireInstalledModel, sharedModel, type ModelChoice } from '../registry/local.js';
import { fbank, FBANK_BINS, FBANK_SAMPLE_RATE } from './fbank.js';

/** Samples of one segmentation chunk: the 10 s pyannote segmentation-3.0 was trained on. */
export const SEGMENT_CHUNK = 10 * FBANK_SAMPLE_RATE;

/**
 * Which local speakers each powerset class means (segmentation-3.0: three speakers, at most two at once):
 * nobody, 1, 2, 3, 1+2, 1+3, 2+3.
 */
const POWERSET: ReadonlyArray<readonly number[]> = [[], [0], [1], [2], [0, 1], [0, 2], [1, 2]];

/**
 * The cosine between two stretches' embeddings at or above which they are one voice, where the manifest
 * names none: pyannote's diarization pipeline clusters WeSpeaker embeddings at a cosine distance of about 0.7.
 */
export const DEFAULT_SAME_SPEAKER = 0.3;

/** The local speakers heard in each frame of one chunk, and how long a frame is. */
export interface ChunkSpeakers {
  /** For each frame, the local speakers (0–2) talking in it; empty where nobody does. */
  frames: Array<readonly number[]>;
  frameSeconds: number;
}

/**
 * A pulled segmentation model.
 * @example
 * const seg = await loadSpeakerSegmenter({ modelsDir }); const { frames } = await seg.segment(pcm10s);
 */
export interface SpeakerSegmenter {
  modelId: string;
  /** Who talks in each frame of up to 10 s of 16 kHz sound (shorter chunks are padded with silence). */
  segment(pcm: Float32Array): Promise<ChunkSpeakers>;
}

/**
 * A pulled speaker embedder.
 * @example
 * const e = await loadSpeakerEmbedder({ modelsDir }); const v = await e.embed(pcm);
 */
export interface SpeakerEmbedder {
  modelId: string;
  /** The cosine at or above which two stretches are one voice (the manifest's sameSpeakerCosine). */
  sameSpeaker: number;
  /** A unit vector for a stretch of one voice (16 kHz); null when it is shorter than one 25 ms frame. */
  embed(pcm: Float32Array): Promise<Float32Array | null>;
}

class OnnxSegmenter implements SpeakerSegmenter {
  constructor(readonly modelId: string, private readonly session: InferenceSession) {}

  async segment(pcm: Float32Array): Promise<ChunkSpeakers> {
    const input = new Float32Array(SEGMENT_CHUNK);
    input.set(pcm.subarray(0, SEGMENT_CHUNK));
    const s = this.session;
    const out = (await s.run({ [s.inputNames[0]!]: new ort.Tensor('float32', input, [1, 1, SEGMENT_CHUNK]) }))[s.outputNames[0]!]!;
    const [, count, classes] = out.dims as number[];
    const logits = out.data as Float32Array;
    const frameSeconds = SEGMENT_CHUNK / FBANK_SAMPLE_RATE / count!;
    // Frames past the end of a short chunk heard only padding.
    const heard = Math.min(count!, Math.ceil(pcm.length / FBANK_SAMPLE_RATE / frameSeconds));
    const frames: Array<readonly number[]> = [];
    for (let f = 0; f < heard; f++) {
      let best = 0;
      for (let c = 1; c < classes!; c++) if (logits[f * classes! + c]! > logits[f * classes! + best]!) best = c;
      frames.push(POWERSET[best] ?? []);
    }
    return { frames, frameSeconds };
  }
}

class OnnxEmbedder implements SpeakerEmbedder {
  constructor(readonly modelId: string, readonly sameSpeaker: number, private readonly session: InferenceSession) {}

  async embed(pcm: Float32Array): Promise<Float32Array | null> {
    const { data, frames } = fbank(pcm);
    if (frames === 0) return null;
    const s = this.session;
    const out = (await s.run({ [s.inputNames[0]!]: new ort.Tensor('float32', data, [1, frames, FBANK_BINS]) }))[s.outputNames[0]!]!;
    return l2normalize(Float32Array.from(out.data as Float32Array));
  }
}

function session(file: string, choice: ModelChoice): Promise<InferenceSession> {
  return ort.InferenceSession.create(file, onnxSessionOptions(choice.providers ?? 'cpu'));
}

/**
 * The installed segmentation model (default or `choice.modelId`), loaded once and shared.
 * Throws ModelNotInstalledError when it has not been pulled.
 * @example
 * const seg = await loadSpeakerSegmenter({ modelsDir: '/data/models' });
 */
export function loadSpeakerSegmenter(choice: ModelChoice): Promise<SpeakerSegmenter> {
  const { entry, dir } = requireInstalledModel(choice, 'speaker_segmentation');
  const file = `${dir}/${entry.files.find((f) => f.path.endsWith('.onnx'))!.path}`;
  return sharedModel(`speaker_segmentation:${file}${providerKey(choice.providers ?? 'cpu')}`, () => session(file, choice)).then((s) => new OnnxSegmenter(entry.id, s));
}

/**
 * The installed speaker embedder (default or `choice.modelId`), loaded once and shared.
 * Throws ModelNotInstalledError when it has not been pulled.
 * @example
 * const embedder = await loadSpeakerEmbedder({ modelsDir: '/data/models' });
 */
export function loadSpeakerEmbedder(choice: ModelChoice): Promise<SpeakerEmbedder> {
  const { entry, dir } = requireInstalledModel(choice, 'speaker_embedding');
  const file = `${dir}/${entry.files.find((f) => f.path.endsWith('.onnx'))!.path}`;
  return sharedModel(`speaker_embedding:${file}${providerKey(choice.providers ?? 'cpu')}`, () => session(file, choice)).then(
    (s) => new OnnxEmbedder(entry.id, entry.sameSpeakerCosine ?? DEFAULT_SAME_SPEAKER, s),
  );
}
