/**
 * bench-models sections for the pulled models, run on the real-shaped stand-ins (scripts/make-standin-models.ts):
 * each part on its own ONNX Runtime session with 1 and with 2 intra-op threads, then the vidx code path
 * (transformers.js, the default session options) end to end.
 *
 * The models dir is VIDX_MODELS_DIR, else `.standins/models`; missing stand-ins are generated there first.
 */
import { join } from 'node:path';
import ort from '../src/ml/ort.js';
import { getTranscriber } from '../src/ml/asr/index.js';
import { getImageTextEmbedder, getTextEmbedder } from '../src/ml/embed/index.js';
import { loadManifest, getModel } from '../src/ml/registry/manifest.js';
import { modelDir, modelStatus } from '../src/ml/registry/status.js';
import type { BenchSection } from './bench-models.js';
import { makeStandinModels } from './make-standin-models.js';
import { WHISPER_SIZES } from './make-standin-models.whisper.js';

const THREADS = [1, 2];
const round = (v: number, digits = 1) => Math.round(v * 10 ** digits) / 10 ** digits;
const modelsDir = () => process.env.VIDX_MODELS_DIR ?? join(process.cwd(), '.standins', 'models');

/** The folder of a manifest model, generating its stand-in first when it is not installed. */
async function ensure(id: string, standin: string): Promise<string> {
  const entry = getModel(loadManifest(), id);
  if (modelStatus(entry, modelsDir()).state !== 'installed') await makeStandinModels(modelsDir(), [standin]);
  return modelDir(modelsDir(), entry);
}

const session = (path: string, threads: number) =>
  ort.InferenceSession.create(path, { intraOpNumThreads: threads, interOpNumThreads: 1, graphOptimizationLevel: 'all' });

/** Median milliseconds of `reps` runs after one warm-up. */
async function timeIt(reps: number, fn: () => Promise<unknown>): Promise<number> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < reps; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return times[times.length >> 1];
}

const f32 = (dims: number[], fill = () => Math.random() - 0.5) => new ort.Tensor('float32', Float32Array.from({ length: dims.reduce((a, b) => a * b, 1) }, fill), dims);
const i64 = (values: number[], dims: number[]) => new ort.Tensor('int64', BigInt64Array.from(values.map(BigInt)), dims);
const ones = (b: number, s: number) => i64(new Array(b * s).fill(1), [b, s]);
const ids = (b: number, s: number, vocab: number) => i64(Array.from({ length: b * s }, () => 100 + Math.floor(Math.random() * (vocab - 200))), [b, s]);

/** Decoder steps with the KV cache, like generation: one prompt step, then one token at a time. */
async function decoderMsPerToken(dec: ort.InferenceSession, encOut: ort.Tensor, steps: number, heads: number, headDim: number): Promise<number> {
  const feeds: Record<string, ort.Tensor> = { encoder_hidden_states: encOut, input_ids: i64([50258, 50259, 50359], [1, 3]), use_cache_branch: new ort.Tensor('bool', [false], [1]) };
  for (const name of dec.inputNames) if (name.startsWith('past_key_values')) feeds[name] = new ort.Tensor('float32', new Float32Array(0), [1, heads, 0, headDim]);
  let out = await dec.run(feeds);
  const t = performance.now();
  for (let i = 0; i < steps; i++) {
    feeds.input_ids = i64([50364 + i], [1, 1]);
    feeds.use_cache_branch = new ort.Tensor('bool', [true], [1]);
    // Like transformers.js: the decoder K/V grow each step; the encoder K/V stay those of the first step.
    for (const name of dec.inputNames) {
      if (name.startsWith('past_key_values') && (i === 0 || name.includes('.decoder.'))) feeds[name] = out[name.replace('past_key_values', 'present')];
    }
    out = await dec.run(feeds);
  }
  return (performance.now() - t) / steps;
}

function whisper(name: string, id: string, standin: string, size: { d: number; heads: number }): BenchSection {
  return {
  name,
  async run({ log }) {
    const dir = await ensure(id, standin);
    const result: Record<string, unknown> = { model: `${id} stand-in (fp32 encoder, int8 merged decoder)` };
    const mel = f32([1, 80, 3000]);
    for (const n of THREADS) {
      const enc = await session(join(dir, 'onnx/encoder_model.onnx'), n);
      const dec = await session(join(dir, 'onnx/decoder_model_merged_quantized.onnx'), n);
      let encOut: ort.Tensor | null = null;
      const encMs = await timeIt(3, async () => (encOut = (await enc.run({ input_features: mel })).last_hidden_state));
      const tokMs = await decoderMsPerToken(dec, encOut as unknown as ort.Tensor, 40, size.heads, size.d / size.heads);
      result[`encoder_ms_per_window_t${n}`] = round(encMs);
      result[`decoder_ms_per_token_t${n}`] = round(tokMs);
      log(`${name} t${n}: encoder ${round(encMs)} ms / 30 s window, decoder ${round(tokMs)} ms / token`);
      await enc.release();
      await dec.release();
    }
    // The vidx path: feature extraction, encoder, ~100 generated tokens with the logits processors, timestamps.
    const asr = await getTranscriber({ modelsDir: modelsDir(), modelId: id });
    const pcm = Float32Array.from({ length: 30 * 16000 }, () => Math.random() * 0.1 - 0.05);
    let words = 0;
    const windowMs = await timeIt(3, async () => {
      const t = await asr.transcribe(pcm, [{ start: 0, end: 30 }], { language: 'en' });
      words = t.segments.reduce((a, s) => a + s.text.split(' ').length, 0);
    });
    result.vidx_ms_per_30s_window = round(windowMs);
    result.words_per_window = words;
    log(`${name} via vidx: ${round(windowMs)} ms per 30 s window (${words} words)`);
    result.rss_mb = round(process.memoryUsage().rss / 2 ** 20);
    return result;
  },
  };
}

/**
 * Whisper base (the default) and tiny: encoder per 30 s window, decoder per token (raw sessions), and a
 * whole 30 s window through vidx.
 * @example
 * SECTIONS.push(whisperSection, whisperTinySection);
 */
export const whisperSection = whisper('whisper', 'whisper-base', 'whisper', WHISPER_SIZES.base);
/** Whisper tiny, as whisperSection. */
export const whisperTinySection = whisper('whisper-tiny', 'whisper-tiny', 'whisper-tiny', WHISPER_SIZES.tiny);

/**
 * CLIP ViT-B/32: image time per frame (batch 1 and the batch of 8 vidx uses), text time per query.
 * @example
 * SECTIONS.push(clipSection);
 */
export const clipSection: BenchSection = {
  name: 'clip',
  async run({ log }) {
    const dir = await ensure('clip-vit-base-patch32', 'clip');
    const result: Record<string, unknown> = { model: 'clip-vit-base-patch32 stand-in (int8)' };
    for (const n of THREADS) {
      const vision = await session(join(dir, 'onnx/vision_model_quantized.onnx'), n);
      const text = await session(join(dir, 'onnx/text_model_quantized.onnx'), n);
      for (const b of [1, 8]) {
        const ms = await timeIt(2, () => vision.run({ pixel_values: f32([b, 3, 224, 224]) }));
        result[`image_ms_per_frame_b${b}_t${n}`] = round(ms / b);
      }
      // A query is ~8 tokens with start and end.
      result[`text_ms_per_query_t${n}`] = round(await timeIt(5, () => text.run({ input_ids: ids(1, 10, 49408), attention_mask: ones(1, 10) })));
      log(`clip t${n}: image ${result[`image_ms_per_frame_b8_t${n}`]} ms/frame at batch 8, text ${result[`text_ms_per_query_t${n}`]} ms/query`);
      await vision.release();
      await text.release();
    }
    const e = await getImageTextEmbedder({ modelsDir: modelsDir() });
    const frame = { data: Uint8Array.from({ length: 640 * 360 * 3 }, (_, i) => i % 251), width: 640, height: 360 };
    result.vidx_image_ms_per_frame_b8 = round((await timeIt(2, () => e.embedImages(new Array(8).fill(frame)))) / 8);
    result.vidx_text_ms_per_query = round(await timeIt(5, () => e.embedTexts(['a dog on the beach at sunset'])));
    log(`clip via vidx: ${result.vidx_image_ms_per_frame_b8} ms/frame (640x360, batch 8), ${result.vidx_text_ms_per_query} ms/query`);
    result.rss_mb = round(process.memoryUsage().rss / 2 ** 20);
    return result;
  },
};

/**
 * multilingual-e5-small: time per passage at vidx's batch of 16, for sentence-long and episode-long passages.
 * @example
 * SECTIONS.push(e5Section);
 */
export const e5Section: BenchSection = {
  name: 'e5',
  async run({ log }) {
    const dir = await ensure('multilingual-e5-small', 'e5');
    const result: Record<string, unknown> = { model: 'multilingual-e5-small stand-in (int8)' };
    for (const n of THREADS) {
      const s = await session(join(dir, 'onnx/model_quantized.onnx'), n);
      // 32 tokens: a transcript sentence (summary ranking); 128 and 512: episode passages (capped at 2000 chars ≈ 500 tokens).
      for (const len of [32, 128, 512]) {
        const b = 16;
        const ms = await timeIt(1, () => s.run({ input_ids: ids(b, len, 250037), attention_mask: ones(b, len), token_type_ids: i64(new Array(b * len).fill(0), [b, len]) }));
        result[`ms_per_passage_${len}tok_b16_t${n}`] = round(ms / b);
      }
      result[`query_ms_t${n}`] = round(await timeIt(5, () => s.run({ input_ids: ids(1, 12, 250037), attention_mask: ones(1, 12), token_type_ids: i64(new Array(12).fill(0), [1, 12]) })));
      log(`e5 t${n}: ${[32, 128, 512].map((len) => `${result[`ms_per_passage_${len}tok_b16_t${n}`]} ms/passage at ${len} tokens`).join(", ")}`);
      await s.release();
    }
    const e = await getTextEmbedder({ modelsDir: modelsDir() });
    const passage = 'Slide 3. Now we talk about penalty shot training and what it means for the next weeks. today we look at the results of our team';
    result.vidx_ms_per_passage_b16 = round((await timeIt(1, () => e.embedPassages(new Array(16).fill(passage)))) / 16);
    result.vidx_query_ms = round(await timeIt(5, () => e.embedQueries(['penalty shot training'])));
    log(`e5 via vidx: ${result.vidx_ms_per_passage_b16} ms/passage, ${result.vidx_query_ms} ms/query`);
    result.rss_mb = round(process.memoryUsage().rss / 2 ** 20);
    return result;
  },
};
