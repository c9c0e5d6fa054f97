/**
 * Speech-to-text with Whisper through transformers.js, on speech segments found elsewhere
 * (VAD). Audio is 16 kHz mono Float32 PCM; output segments carry absolute times in seconds.
 *
 * Windows run one after another: transformers.js decodes timestamped Whisper output one
 * window at a time, and on two cores a batch would not run faster anyway.
 */
import { requireInstalledModel, sharedModel, type ModelChoice } from '../registry/local.js';
import { loadTransformers, sessionOptions } from '../registry/transformers.js';
import { planChunks, type AsrChunk, type SpeechSegment } from './chunking.js';
import { providerKey, type OnnxProviders } from '../providers.js';

export const SAMPLE_RATE = 16_000;

/** One transcribed stretch, in seconds from the start of the audio. */
export interface TranscriptSegment {
  start: number;
  end: number;
  text: string;
}

export interface Transcript {
  /** Language used for decoding (ISO code, e.g. 'de'); null when there was no speech. */
  language: string | null;
  segments: TranscriptSegment[];
  model: string;
}

export interface TranscribeOptions {
  /** Language code ('en', 'de', …) or 'auto' (default) to detect it from the first window. */
  language?: string;
  /** Restricts detection to these codes, e.g. ['en', 'de']. Default: every language the model knows. */
  candidates?: string[];
  /** Longest window in seconds (≤ 30). */
  maxChunkS?: number;
  signal?: AbortSignal;
  onProgress?: (doneChunks: number, totalChunks: number) => void;
}

/** A loaded Whisper model, shared by every caller of the same models dir and model. */
export interface Transcriber {
  modelId: string;
  /**
   * @example
   * const { segments } = await t.transcribe(pcm16k, [{ start: 0.5, end: 7.2 }], { language: 'de' });
   */
  transcribe(pcm: Float32Array, speech: SpeechSegment[], opts?: TranscribeOptions): Promise<Transcript>;
  /** Which language a 16 kHz clip (≤ 30 s used) is in. */
  detectLanguage(pcm: Float32Array, candidates?: string[]): Promise<string>;
}

// transformers.js types its pipelines loosely; this is the part of the ASR pipeline used here.
interface AsrPipeline {
  (audio: Float32Array, opts: Record<string, unknown>): Promise<{ text: string; chunks?: { timestamp: [number, number | null]; text: string }[] }>;
  processor: (audio: Float32Array) => Promise<{ input_features: unknown }>;
  model: ((inputs: Record<string, unknown>) => Promise<{ logits: { data: Float32Array; dims: number[] } }>) & {
    generation_config: { decoder_start_token_id: number; lang_to_id?: Record<string, number> };
  };
}

async function loadWhisper(dir: string, dtype: unknown, providers?: OnnxProviders): Promise<AsrPipeline> {
  const { pipeline } = await loadTransformers();
  const asr = await pipeline('automatic-speech-recognition', dir, {
    // Per-file dtypes (fp32 encoder, q8 decoder) come from the manifest.
    dtype: dtype as never,
    session_options: sessionOptions(providers),
  });
  return asr as unknown as AsrPipeline;
}

/** Runs tasks one at a time: two windows at once would only fight over the two cores. */
function serial() {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(task: () => Promise<T>): Promise<T> => {
    const run = tail.then(task, task);
    tail = run.catch(() => undefined);
    return run;
  };
}

function makeTranscriber(modelId: string, asr: AsrPipeline): Transcriber {
  const queue = serial();

  async function detect(pcm: Float32Array, candidates?: string[]): Promise<string> {
    const { Tensor } = await loadTransformers();
    const clip = pcm.subarray(0, 30 * SAMPLE_RATE);
    const { input_features } = await asr.processor(clip);
    const gen = asr.model.generation_config;
    const sot = BigInt(gen.decoder_start_token_id);
    // One decoder step after <|startoftranscript|>: the language tokens' logits say the language.
    const out = await asr.model({ input_features, decoder_input_ids: new Tensor('int64', BigInt64Array.from([sot]), [1, 1]) });
    const vocab = out.logits.dims.at(-1) ?? 0;
    const last = out.logits.data.subarray(out.logits.data.length - vocab);
    let best: string | null = null;
    let bestLogit = -Infinity;
    for (const [token, id] of Object.entries(gen.lang_to_id ?? {})) {
      const code = token.replace(/^<\|/, '').replace(/\|>$/, '');
      if (candidates && !candidates.includes(code)) continue;
      if (last[id] > bestLogit) {
        bestLogit = last[id];
        best = code;
      }
    }
    if (!best) throw new Error(`model ${modelId} cannot detect languages (no lang_to_id for ${candidates?.join(', ') ?? 'any'})`);
    return best;
  }

  async function transcribeChunk(pcm: Float32Array, chunk: AsrChunk, language: string): Promise<TranscriptSegment[]> {
    const audio = pcm.subarray(Math.floor(chunk.start * SAMPLE_RATE), Math.ceil(chunk.end * SAMPLE_RATE));
    const out = await asr(audio, { return_timestamps: true, language, task: 'transcribe' });
    const segments: TranscriptSegment[] = [];
    for (const c of out.chunks ?? [{ timestamp: [0, null] as [number, number | null], text: out.text }]) {
      const text = c.text.replace(/\s+/g, ' ').trim();
      if (!text) continue;
      // Whisper may place timestamps past a short window's end: clamp into the window.
      const start = Math.min(chunk.end, chunk.start + Math.max(0, c.timestamp[0] ?? 0));
      const end = Math.min(chunk.end, Math.max(start, chunk.start + (c.timestamp[1] ?? chunk.end - chunk.start)));
      segments.push({ start: round(start), end: round(end), text });
    }
    return segments;
  }

  return {
    modelId,
    detectLanguage: (pcm, candidates) => queue(() => detect(pcm, candidates)),
    transcribe(pcm, speech, opts = {}) {
      return queue(async () => {
        if (!(pcm instanceof Float32Array)) throw new TypeError('pcm must be a Float32Array of 16 kHz mono samples');
        const chunks = planChunks(speech, { durationS: pcm.length / SAMPLE_RATE, maxChunkS: Math.min(30, opts.maxChunkS ?? 30) });
        const wanted = opts.language && opts.language !== 'auto' ? opts.language : null;
        if (chunks.length === 0) return { language: wanted, segments: [], model: modelId };
        const first = chunks[0];
        const language =
          wanted ?? (await detect(pcm.subarray(Math.floor(first.start * SAMPLE_RATE), Math.ceil(first.end * SAMPLE_RATE)), opts.candidates));
        const segments: TranscriptSegment[] = [];
        for (const [i, chunk] of chunks.entries()) {
          opts.signal?.throwIfAborted();
          segments.push(...(await transcribeChunk(pcm, chunk, language)));
          opts.onProgress?.(i + 1, chunks.length);
        }
        return { language, segments, model: modelId };
      });
    },
  };
}

function round(t: number): number {
  return Math.round(t * 1000) / 1000;
}

/**
 * The shared Whisper transcriber for a models dir (default model unless `modelId`), loaded on
 * first use from local files only. Rejects with ModelNotInstalledError (and a pull hint) when
 * the model is not installed.
 * @example
 * const t = await getTranscriber({ modelsDir: '/data/models' });
 * const { language, segments } = await t.transcribe(pcm, vadSegments);
 */
export async function getTranscriber(choice: ModelChoice): Promise<Transcriber> {
  const { entry, dir } = requireInstalledModel(choice, 'asr');
  if (entry.family !== 'whisper') throw new Error(`model ${entry.id} is not a Whisper model`);
  return sharedModel(`asr:${dir}:${JSON.stringify(entry.dtype)}${providerKey(choice.providers ?? 'cpu')}`, async () => makeTranscriber(entry.id, await loadWhisper(dir, entry.dtype, choice.providers)));
}
