import { SileroStream, sileroSession, VAD_SAMPLE_RATE, VAD_WINDOW } from './model.js';
import type { ModelAssetPaths } from '../assets.js';
import { SpeechSegmenter, type SegmenterOptions, type SpeechSegment } from './segmenter.js';
import { fixedWindows } from '../../tools/fixed-windows.js';

/**
 * Segment shapes, defaults, model location and the ffmpeg byte-stream adapter.
 * @example
 * import { detectSpeech, f32leChunks, type SpeechSegment } from './ml/vad/index.js';
 */
export type { SpeechSegment, SegmenterOptions } from './segmenter.js';
export { DEFAULT_SEGMENTER_OPTIONS } from './segmenter.js';
export { sileroModelPath, releaseSileroSession, VAD_SAMPLE_RATE } from './model.js';
export { f32leChunks } from './pcm.js';

/**
 * Voice activity detection settings: all of the segmenter's, each optional, and where the model is.
 * @example
 * const opts: VadOptions = { minSilenceMs: 300, speechPadMs: 150 };
 */
export type VadOptions = Partial<SegmenterOptions> & {
  /** The server's model files (VIDX_SILERO_VAD); default: the npm package's model. */
  assets?: Readonly<ModelAssetPaths>;
};

/**
 * Yields speech segments of a 16 kHz mono stream as soon as each is final. Chunks may have any
 * length; only one 512-sample window is held at a time, so hours of audio never sit in memory.
 * The last partial window is zero-padded, as Silero does.
 * @example
 * for await (const seg of streamSpeechSegments(pcmChunks)) console.log(seg.start, seg.end);
 */
export async function* streamSpeechSegments(
  chunks: AsyncIterable<Float32Array> | Iterable<Float32Array>,
  options: VadOptions = {},
): AsyncGenerator<SpeechSegment> {
  const vad = new SileroStream(await sileroSession(options.assets));
  const segmenter = new SpeechSegmenter(VAD_SAMPLE_RATE, VAD_WINDOW, options);
  let total = 0;
  async function* counted() {
    for await (const chunk of chunks) {
      total += chunk.length;
      yield chunk;
    }
  }
  // One window, overwritten by the next: the model has read it by then. The last partial one is zero-padded.
  for await (const window of fixedWindows(counted(), VAD_WINDOW, (n) => new Float32Array(n), { reuse: true, padTail: true })) {
    yield* segmenter.push(await vad.probability(window));
  }
  yield* segmenter.finish(total);
}

/**
 * Collects all speech segments of a 16 kHz mono stream.
 * @example
 * const segments = await detectSpeech(decodeAudio('talk.mp4')); // [{ start: 2.02, end: 3.9 }, …]
 */
export async function detectSpeech(
  chunks: AsyncIterable<Float32Array> | Iterable<Float32Array>,
  options: VadOptions = {},
): Promise<SpeechSegment[]> {
  const out: SpeechSegment[] = [];
  for await (const seg of streamSpeechSegments(chunks, options)) out.push(seg);
  return out;
}

/**
 * Speech segments of audio already in memory: 16 kHz mono Float32 samples in -1..1.
 * @example
 * const segments = await detectSpeechInSamples(pcm, { minSilenceMs: 300 });
 */
export function detectSpeechInSamples(samples: Float32Array, options: VadOptions = {}): Promise<SpeechSegment[]> {
  return detectSpeech([samples], options);
}
