/**
 * Writes tiny, deterministic stand-ins for the model families vidx uses (Whisper,
 * CLIP, SigLIP, BERT/e5, SFace), in the exact Hugging Face layout transformers.js reads, plus a manifest in
 * the format of models/manifest.json. Tests serve the folder from a loopback "hub".
 *
 * Run: `npx tsx scripts/make-fixture-models.ts <outDir>` (or import `makeFixtureModels`).
 * Needs only Node: the ONNX files are written by a small protobuf writer, no Python.
 *
 * The Whisper decoder is hand-set: its logits only depend on the last token, through a
 * next-token table, so after `<|transcribe|>` it always says
 * `<|0.00|> Hello world.<|1.00|><|1.20|> Guten Tag<|2.50|><|endoftext|>`, and after
 * `<|startoftranscript|>` it predicts `<|de|>` (what language detection should report).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { encodeModel, Graph, graph, int, ints, randomFloats } from './make-fixture-models.onnx.js';
import { byteLevel, byteLevelBpe, template, wordPiece } from './make-fixture-models.tokenizers.js';
import type { Capability } from '../src/ml/registry/manifest.js';
import { tinyGguf } from './make-fixture-gguf.js';

/** What the fixture Whisper says, so tests can assert on it. */
export const FIXTURE_TRANSCRIPT = [
  { start: 0, end: 1.0, text: 'Hello world.' },
  { start: 1.2, end: 2.5, text: 'Guten Tag' },
] as const;
/** The language the fixture Whisper "detects". */
export const FIXTURE_DETECTED_LANGUAGE = 'de';
/** Embedding sizes of the fixture models. */
export const FIXTURE_DIMS = { image_text: 16, text_embedding: 32, face_embedding: 128, speaker_embedding: 79 } as const;

/** Result of generating the fixtures. */
export interface FixtureSet {
  /** Folder holding `<repo>/<file>` trees, to serve as a hub. */
  hubDir: string;
  /** Path of the generated manifest (same format as models/manifest.json). */
  manifestPath: string;
  manifest: FixtureManifest;
}

/** One written file with its size and hash. */
export interface FixtureFile {
  path: string;
  size: number;
  sha256: string;
}

interface FixtureModel {
  id: string;
  task: string;
  capability: Capability;
  family: string;
  repo: string;
  revision: string;
  default: boolean;
  dtype: string | Record<string, string>;
  license: string;
  dimensions: number | null;
  files: FixtureFile[];
  notes: string;
  sameSpeakerCosine?: number;
  credit?: string;
}

/** The manifest written next to the fixture repos. */
export interface FixtureManifest {
  schemaVersion: 1;
  models: FixtureModel[];
}

/** A repo's files by path: bytes, text or JSON. */
/** Whisper's feature extractor settings (80 mel bins, 30 s windows), as the hub repos have them. */
export const WHISPER_PREPROCESSOR = {
  chunk_length: 30,
  feature_extractor_type: 'WhisperFeatureExtractor',
  feature_size: 80,
  hop_length: 160,
  n_fft: 400,
  n_samples: 480000,
  nb_max_frames: 3000,
  padding_side: 'right',
  padding_value: 0.0,
  processor_class: 'WhisperProcessor',
  return_attention_mask: false,
  sampling_rate: 16000,
};

/** Whisper's tokenizer_config.json. */
export const WHISPER_TOKENIZER_CONFIG = {
  tokenizer_class: 'WhisperTokenizer',
  bos_token: '<|endoftext|>',
  eos_token: '<|endoftext|>',
  pad_token: '<|endoftext|>',
  unk_token: '<|endoftext|>',
  model_max_length: 1024,
  errors: 'replace',
  add_prefix_space: false,
};

/**
 * CLIP's image processor settings for a square input of `size` pixels.
 * @example
 * clipPreprocessor(224).crop_size; // { height: 224, width: 224 }
 */
export function clipPreprocessor(size: number) {
  return {
    crop_size: { height: size, width: size },
    do_center_crop: true,
    do_convert_rgb: true,
    do_normalize: true,
    do_rescale: true,
    do_resize: true,
    feature_extractor_type: 'CLIPFeatureExtractor',
    image_mean: [0.48145466, 0.4578275, 0.40821073],
    image_processor_type: 'CLIPImageProcessor',
    image_std: [0.26862954, 0.26130258, 0.27577711],
    resample: 3,
    rescale_factor: 1 / 255,
    size: { shortest_edge: size },
  };
}

export type RepoFiles = Record<string, Uint8Array | string | object>;

function toBytes(content: Uint8Array | string | object): Uint8Array {
  if (content instanceof Uint8Array) return content;
  const text = typeof content === 'string' ? content : `${JSON.stringify(content, null, 2)}\n`;
  return new TextEncoder().encode(text);
}

/**
 * Writes a repo's files under `hubDir/<repo>/` and returns their sizes and hashes.
 * @example
 * writeRepo(hubDir, 'vidx-test/tiny-e5', { 'config.json': { model_type: 'bert' } });
 */
export function writeRepo(hubDir: string, repo: string, files: RepoFiles): FixtureFile[] {
  const out: FixtureFile[] = [];
  for (const [path, content] of Object.entries(files)) {
    const bytes = toBytes(content);
    const full = join(hubDir, repo, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, bytes);
    out.push({ path, size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') });
  }
  return out;
}

/** A fake but stable 40-hex revision derived from the repo's content. */
function revisionOf(files: FixtureFile[]): string {
  const h = createHash('sha1');
  for (const f of files) h.update(`${f.path}:${f.sha256}\n`);
  return h.digest('hex');
}

// ---------------------------------------------------------------- Whisper

const D_MODEL = 8;

function whisperTokenizer() {
  const langs = ['<|en|>', '<|de|>'];
  const specials = [
    '<|endoftext|>',
    '<|startoftranscript|>',
    ...langs,
    '<|translate|>',
    '<|transcribe|>',
    '<|startoflm|>',
    '<|startofprev|>',
    '<|nospeech|>',
    '<|notimestamps|>',
  ];
  const timestamps = Array.from({ length: 1501 }, (_, i) => `<|${(i * 0.02).toFixed(2)}|>`);
  return byteLevelBpe({ words: [' Hello', ' world', ' Guten', ' Tag'], specials, plainAdded: timestamps });
}

function whisperFiles(): RepoFiles {
  const tok = whisperTokenizer();
  const id = (s: string) => {
    const v = tok.ids.get(s);
    if (v === undefined) throw new Error(`fixture whisper: no token ${s}`);
    return v;
  };
  const ts = (t: number) => id(`<|${t.toFixed(2)}|>`);
  const EOT = id('<|endoftext|>');
  const SOT = id('<|startoftranscript|>');
  const V = tok.size;

  // Next-token table: everything not listed ends the sequence.
  const next = new Array<number>(V).fill(EOT);
  const chain = [
    id('<|transcribe|>'),
    ts(0),
    id(byteLevel(' Hello')),
    id(byteLevel(' world')),
    id('.'),
    ts(1.0),
    ts(1.2),
    id(byteLevel(' Guten')),
    id(byteLevel(' Tag')),
    ts(2.5),
    EOT,
  ];
  for (let i = 0; i + 1 < chain.length; i++) next[chain[i]] = chain[i + 1];
  next[SOT] = id('<|de|>');

  // Encoder: every second mel frame, projected to d_model: [b, 80, 3000] → [b, 1500, 8].
  const enc = new Graph('tiny-whisper-encoder');
  enc.input('input_features', 'float32', ['batch_size', 80, 3000]);
  enc.const('proj', 'float32', [80, D_MODEL], randomFloats(80 * D_MODEL, 1));
  const sliced = enc.node('Slice', ['input_features', enc.int64('s0', [0]), enc.int64('s1', [3000]), enc.int64('sa', [2]), enc.int64('ss', [2])]);
  const frames = enc.node('Transpose', [sliced], undefined, { perm: ints([0, 2, 1]) });
  enc.node('MatMul', [frames, 'proj'], ['last_hidden_state']);
  enc.output('last_hidden_state', 'float32', ['batch_size', 1500, D_MODEL]);

  // Merged decoder with a KV cache that has the real shapes, and logits from the table.
  const dec = new Graph('tiny-whisper-decoder-merged');
  const pkv = (kind: string, part: string) => `past_key_values.0.${kind}.${part}`;
  dec.input('input_ids', 'int64', ['batch_size', 'decoder_sequence_length']);
  dec.input('encoder_hidden_states', 'float32', ['batch_size', 'encoder_sequence_length', D_MODEL]);
  for (const part of ['key', 'value']) dec.input(pkv('decoder', part), 'float32', ['batch_size', 1, 'past_decoder_sequence_length', D_MODEL]);
  for (const part of ['key', 'value']) dec.input(pkv('encoder', part), 'float32', ['batch_size', 1, 'encoder_sequence_length_out', D_MODEL]);
  dec.input('use_cache_branch', 'bool', [1]);

  dec.int64('next_table', next, [V]);
  const nextIds = dec.node('Gather', ['next_table', 'input_ids'], undefined, { axis: int(0) });
  dec.const('onehot_values', 'float32', [2], Float32Array.from([0, 20]));
  dec.node('OneHot', [nextIds, dec.int64('depth', [V]), 'onehot_values'], ['logits'], { axis: int(-1) });

  const idsF = dec.node('Cast', ['input_ids'], undefined, { to: int(1) });
  const idsU = dec.node('Unsqueeze', [idsF, dec.int64('kv_axes', [1, 3])]);
  const kvNew = dec.node('Expand', [idsU, dec.int64('kv_shape', [1, 1, 1, D_MODEL])]);
  for (const part of ['key', 'value']) {
    dec.node('Concat', [pkv('decoder', part), kvNew], [`present.0.decoder.${part}`], { axis: int(2) });
  }

  const thenG = new Graph('use_cache');
  thenG.node('Identity', [pkv('encoder', 'key')], ['then_key']);
  thenG.node('Identity', [pkv('encoder', 'value')], ['then_value']);
  thenG.output('then_key', 'float32').output('then_value', 'float32');
  const elseG = new Graph('compute_cross_kv');
  const encU = elseG.node('Unsqueeze', ['encoder_hidden_states', elseG.int64('cross_axes', [1])]);
  elseG.node('Identity', [encU], ['else_key']);
  elseG.node('Identity', [encU], ['else_value']);
  elseG.output('else_key', 'float32').output('else_value', 'float32');
  dec.node('If', ['use_cache_branch'], ['present.0.encoder.key', 'present.0.encoder.value'], {
    then_branch: graph(thenG),
    else_branch: graph(elseG),
  });

  dec.output('logits', 'float32', ['batch_size', 'decoder_sequence_length', V]);
  for (const part of ['key', 'value']) {
    dec.output(`present.0.decoder.${part}`, 'float32', ['batch_size', 1, 'present_decoder_sequence_length', D_MODEL]);
  }
  for (const part of ['key', 'value']) {
    dec.output(`present.0.encoder.${part}`, 'float32', ['batch_size', 1, 'encoder_sequence_length_out', D_MODEL]);
  }

  const common = {
    decoder_start_token_id: SOT,
    eos_token_id: EOT,
    pad_token_id: EOT,
    bos_token_id: EOT,
    begin_suppress_tokens: [EOT],
  };
  return {
    'config.json': {
      architectures: ['WhisperForConditionalGeneration'],
      model_type: 'whisper',
      d_model: D_MODEL,
      encoder_layers: 1,
      decoder_layers: 1,
      encoder_attention_heads: 1,
      decoder_attention_heads: 1,
      encoder_ffn_dim: 16,
      decoder_ffn_dim: 16,
      num_mel_bins: 80,
      max_source_positions: 1500,
      max_target_positions: 448,
      vocab_size: V,
      is_encoder_decoder: true,
      use_cache: true,
      median_filter_width: 7,
      ...common,
    },
    'generation_config.json': {
      ...common,
      is_multilingual: true,
      lang_to_id: { '<|en|>': id('<|en|>'), '<|de|>': id('<|de|>') },
      task_to_id: { transcribe: id('<|transcribe|>'), translate: id('<|translate|>') },
      no_timestamps_token_id: id('<|notimestamps|>'),
      max_initial_timestamp_index: 50,
      max_length: 448,
      suppress_tokens: [],
      alignment_heads: [[0, 0]],
      return_timestamps: false,
    },
    'preprocessor_config.json': WHISPER_PREPROCESSOR,
    'tokenizer.json': JSON.stringify(tok.json),
    'tokenizer_config.json': WHISPER_TOKENIZER_CONFIG,
    'onnx/encoder_model.onnx': encodeModel(enc),
    // Written under the q8 name so the fixture exercises the manifest's per-file dtype, like the
    // real whisper-base entry (fp32 encoder, quantized decoder). It is not actually quantized.
    'onnx/decoder_model_merged_quantized.onnx': encodeModel(dec),
  };
}

// ---------------------------------------------------------------- CLIP

const CLIP_HIDDEN = 16;
const CLIP_IMAGE = 32;

function clipFiles(): RepoFiles {
  const D = FIXTURE_DIMS.image_text;
  const words = [' photo', ' cat', ' dog', ' car', ' katze', ' hund', ' auto', 'photo', 'cat', 'dog'];
  const tok = byteLevelBpe({
    words,
    specials: ['<|startoftext|>', '<|endoftext|>'],
    postProcessor: (ids) => template(ids, ['<|startoftext|>'], ['<|endoftext|>']),
  });
  const BOS = tok.ids.get('<|startoftext|>') as number;
  const EOS = tok.ids.get('<|endoftext|>') as number;
  const V = tok.size;

  // Text: masked mean of token embeddings, projected; padding never changes a row's result.
  const text = new Graph('tiny-clip-text');
  text.input('input_ids', 'int64', ['batch_size', 'sequence_length']);
  text.input('attention_mask', 'int64', ['batch_size', 'sequence_length']);
  text.const('token_embedding', 'float32', [V, CLIP_HIDDEN], randomFloats(V * CLIP_HIDDEN, 2));
  text.const('text_projection', 'float32', [CLIP_HIDDEN, D], randomFloats(CLIP_HIDDEN * D, 3));
  const x = text.node('Gather', ['token_embedding', 'input_ids'], ['last_hidden_state'], { axis: int(0) });
  const maskF = text.node('Cast', ['attention_mask'], undefined, { to: int(1) });
  const mask = text.node('Unsqueeze', [maskF, text.int64('mask_axes', [2])]);
  const summed = text.node('ReduceSum', [text.node('Mul', [x, mask]), text.int64('seq_axis', [1])], undefined, { keepdims: int(0) });
  const count = text.node('ReduceSum', [mask, 'seq_axis'], undefined, { keepdims: int(0) });
  const mean = text.node('Div', [summed, count]);
  text.node('MatMul', [mean, 'text_projection'], ['text_embeds']);
  text.output('text_embeds', 'float32', ['batch_size', D]);
  text.output('last_hidden_state', 'float32', ['batch_size', 'sequence_length', CLIP_HIDDEN]);

  // Vision: 8×8 average pooling to a 3×4×4 grid, flattened and projected.
  const vision = new Graph('tiny-clip-vision');
  vision.input('pixel_values', 'float32', ['batch_size', 3, CLIP_IMAGE, CLIP_IMAGE]);
  vision.const('visual_projection', 'float32', [48, D], randomFloats(48 * D, 4));
  const pooled = vision.node('AveragePool', ['pixel_values'], undefined, { kernel_shape: ints([8, 8]), strides: ints([8, 8]) });
  const flat = vision.node('Flatten', [pooled], undefined, { axis: int(1) });
  vision.node('MatMul', [flat, 'visual_projection'], ['image_embeds']);
  vision.output('image_embeds', 'float32', ['batch_size', D]);

  return {
    'config.json': {
      architectures: ['CLIPModel'],
      model_type: 'clip',
      projection_dim: D,
      logit_scale_init_value: 2.6592,
      text_config: { model_type: 'clip_text_model', hidden_size: CLIP_HIDDEN, vocab_size: V, max_position_embeddings: 77, projection_dim: D, bos_token_id: BOS, eos_token_id: EOS, pad_token_id: EOS },
      vision_config: { model_type: 'clip_vision_model', hidden_size: CLIP_HIDDEN, image_size: CLIP_IMAGE, patch_size: 8, projection_dim: D },
    },
    'preprocessor_config.json': clipPreprocessor(CLIP_IMAGE),
    'tokenizer.json': JSON.stringify(tok.json),
    'tokenizer_config.json': {
      tokenizer_class: 'CLIPTokenizer',
      bos_token: '<|startoftext|>',
      eos_token: '<|endoftext|>',
      pad_token: '<|endoftext|>',
      unk_token: '<|endoftext|>',
      model_max_length: 77,
      do_lower_case: true,
    },
    'onnx/text_model_quantized.onnx': encodeModel(text),
    'onnx/vision_model_quantized.onnx': encodeModel(vision),
  };
}

// ---------------------------------------------------------------- SigLIP

function siglipFiles(): RepoFiles {
  const D = FIXTURE_DIMS.image_text;
  const tok = byteLevelBpe({
    words: [' photo', ' cat', ' katze', 'photo', 'cat'],
    specials: ['<pad>', '</s>', '<unk>'],
    postProcessor: (ids) => template(ids, [], ['</s>']),
  });
  const V = tok.size;

  // Like SigLIP's exports: input_ids only (texts are always padded to 64), pooled output.
  const text = new Graph('tiny-siglip-text');
  text.input('input_ids', 'int64', ['batch_size', 'sequence_length']);
  text.const('token_embedding', 'float32', [V, D], randomFloats(V * D, 8));
  const x = text.node('Gather', ['token_embedding', 'input_ids'], ['last_hidden_state'], { axis: int(0) });
  // Opset 17: ReduceMean still takes its axes as an attribute (ReduceSum takes an input).
  text.node('ReduceMean', [x], ['pooler_output'], { axes: ints([1]), keepdims: int(0) });
  text.output('last_hidden_state', 'float32', ['batch_size', 'sequence_length', D]);
  text.output('pooler_output', 'float32', ['batch_size', D]);

  const vision = new Graph('tiny-siglip-vision');
  vision.input('pixel_values', 'float32', ['batch_size', 3, CLIP_IMAGE, CLIP_IMAGE]);
  vision.const('head', 'float32', [48, D], randomFloats(48 * D, 9));
  const pooled = vision.node('AveragePool', ['pixel_values'], undefined, { kernel_shape: ints([8, 8]), strides: ints([8, 8]) });
  vision.node('MatMul', [vision.node('Flatten', [pooled], undefined, { axis: int(1) }), 'head'], ['pooler_output']);
  vision.output('pooler_output', 'float32', ['batch_size', D]);

  return {
    'config.json': {
      architectures: ['SiglipModel'],
      model_type: 'siglip',
      text_config: { model_type: 'siglip_text_model', hidden_size: D, vocab_size: V, max_position_embeddings: 64 },
      vision_config: { model_type: 'siglip_vision_model', hidden_size: D, image_size: CLIP_IMAGE, patch_size: 8 },
    },
    'preprocessor_config.json': {
      do_normalize: true,
      do_rescale: true,
      do_resize: true,
      image_mean: [0.5, 0.5, 0.5],
      image_std: [0.5, 0.5, 0.5],
      image_processor_type: 'SiglipImageProcessor',
      processor_class: 'SiglipProcessor',
      resample: 2,
      rescale_factor: 1 / 255,
      size: { height: CLIP_IMAGE, width: CLIP_IMAGE },
    },
    'tokenizer.json': JSON.stringify(tok.json),
    'tokenizer_config.json': {
      tokenizer_class: 'SiglipTokenizer',
      eos_token: '</s>',
      pad_token: '<pad>',
      unk_token: '<unk>',
      model_max_length: 64,
    },
    'onnx/text_model_quantized.onnx': encodeModel(text),
    'onnx/vision_model_quantized.onnx': encodeModel(vision),
  };
}

// ---------------------------------------------------------------- BERT / e5

function bertFiles(): RepoFiles {
  const H = FIXTURE_DIMS.text_embedding;
  const tok = wordPiece(['query', 'passage', 'hello', 'world', 'hallo', 'welt', 'the', 'cat', 'katze', 'die', 'der', 'das', 'video', 'search']);
  const V = tok.size;
  // Per-token features only (no attention), so padding a batch never changes a row's result.
  const g = new Graph('tiny-e5');
  g.input('input_ids', 'int64', ['batch_size', 'sequence_length']);
  g.input('attention_mask', 'int64', ['batch_size', 'sequence_length']);
  g.input('token_type_ids', 'int64', ['batch_size', 'sequence_length']);
  g.const('word_embeddings', 'float32', [V, H], randomFloats(V * H, 5));
  g.const('token_type_embeddings', 'float32', [2, H], randomFloats(2 * H, 6));
  g.const('dense', 'float32', [H, H], randomFloats(H * H, 7));
  const words = g.node('Gather', ['word_embeddings', 'input_ids'], undefined, { axis: int(0) });
  const types = g.node('Gather', ['token_type_embeddings', 'token_type_ids'], undefined, { axis: int(0) });
  const hidden = g.node('Tanh', [g.node('MatMul', [g.node('Add', [words, types]), 'dense'])]);
  const mask = g.node('Unsqueeze', [g.node('Cast', ['attention_mask'], undefined, { to: int(1) }), g.int64('mask_axes', [2])]);
  g.node('Mul', [hidden, mask], ['last_hidden_state']);
  g.output('last_hidden_state', 'float32', ['batch_size', 'sequence_length', H]);

  return {
    'config.json': {
      architectures: ['BertModel'],
      model_type: 'bert',
      hidden_size: H,
      intermediate_size: H,
      num_attention_heads: 1,
      num_hidden_layers: 1,
      max_position_embeddings: 128,
      type_vocab_size: 2,
      vocab_size: V,
      pad_token_id: 0,
    },
    'tokenizer.json': JSON.stringify(tok.json),
    'tokenizer_config.json': {
      tokenizer_class: 'BertTokenizer',
      do_lower_case: true,
      cls_token: '[CLS]',
      sep_token: '[SEP]',
      pad_token: '[PAD]',
      unk_token: '[UNK]',
      mask_token: '[MASK]',
      model_max_length: 128,
    },
    'onnx/model_quantized.onnx': encodeModel(g),
  };
}

// ---------------------------------------------------------------- SFace stand-in

/**
 * Same inputs and outputs as OpenCV Zoo's SFace (1×3×112×112 RGB 0..255 in, 128 floats out), but no face
 * knowledge: an 8×8 colour thumbnail of the aligned crop, its mean taken off, through a fixed random
 * projection. The same crop gives the same vector and slightly changed crops close ones, which is all the
 * grouping tests can ask of a stand-in; telling two real people apart is the real model's job.
 */
function sfaceFiles(): RepoFiles {
  const D = FIXTURE_DIMS.face_embedding;
  const g = new Graph('tiny-sface');
  g.input('data', 'float32', [1, 3, 112, 112]);
  g.const('projection', 'float32', [192, D], randomFloats(192 * D, 11));
  const pooled = g.node('AveragePool', ['data'], undefined, { kernel_shape: ints([14, 14]), strides: ints([14, 14]) });
  const flat = g.node('Flatten', [pooled], undefined, { axis: int(1) });
  const centred = g.node('Sub', [flat, g.node('ReduceMean', [flat], undefined, { axes: ints([1]), keepdims: int(1) })]);
  g.node('MatMul', [centred, 'projection'], ['fc1']);
  g.output('fc1', 'float32', [1, D]);
  return { 'face_recognition_sface_2021dec.onnx': encodeModel(g) };
}

// ---------------------------------------------------------------- speaker pair stand-ins

/** The stand-in embedder's cosine for one voice (measured on espeak-ng voices, see wespeakerFiles). */
const TINY_SAME_SPEAKER = 0.4;

/** Frames of pyannote segmentation-3.0 per 10 s chunk, and the samples each of the stand-in's frames hears. */
const SEGMENT_FRAMES = 589;
const SEGMENT_HOP = 270;

/**
 * Same input and output as pyannote segmentation-3.0 (`input_values` 1×1×160000 at 16 kHz in, `logits`
 * 1×589×7 powerset classes out), but no voice knowledge: a frame is "speaker 1 alone" when its log energy is
 * above a floor, else "nobody". So it finds speech and never a change of voice: the stand-in pieces a
 * recording by its pauses, and telling the voices apart is left to the embedder, as with the real pair where
 * one voice follows another across chunks.
 */
function pyannoteFiles(): RepoFiles {
  const g = new Graph('tiny-pyannote');
  g.input('input_values', 'float32', [1, 1, 160_000]);
  const heard = g.node('Slice', ['input_values', g.int64('from', [0]), g.int64('to', [SEGMENT_FRAMES * SEGMENT_HOP]), g.int64('axis', [2])]);
  const frames = g.node('Reshape', [heard, g.int64('frames', [1, SEGMENT_FRAMES, SEGMENT_HOP])]);
  const energy = g.node('ReduceMean', [g.node('Mul', [frames, frames])], undefined, { axes: ints([2]), keepdims: int(1) });
  const loud = g.node('Log', [g.node('Add', [energy, g.const('tiny', 'float32', [1], Float32Array.of(1e-10))])]);
  const zero = g.node('Mul', [loud, g.const('nought', 'float32', [1], Float32Array.of(0))]);
  // An RMS of 0.003 (about -50 dBFS) is the floor: quieter frames are nobody.
  const nobody = g.node('Add', [zero, g.const('floor', 'float32', [1], Float32Array.of(Math.log(0.003 ** 2)))]);
  const never = g.node('Add', [zero, g.const('never', 'float32', [1], Float32Array.of(-1000))]);
  g.node('Concat', [nobody, loud, never, never, never, never, never], ['logits'], { axis: int(2) });
  g.output('logits', 'float32', [1, SEGMENT_FRAMES, 7]);
  return {
    'config.json': { model_type: 'pyannote', num_labels: 7 },
    'preprocessor_config.json': { feature_extractor_type: 'PyAnnoteFeatureExtractor', sampling_rate: 16_000, return_attention_mask: false },
    'onnx/model.onnx': encodeModel(g),
  };
}

/**
 * Same input and output as WeSpeaker's ResNet34 (`feats` 1×T×80 mean-normalised log mel bands in, `embs`
 * 1×79 out), but no learnt weights: how much each pair of neighbouring bands differs, frame by frame, on
 * average (logged, less its mean over the bands). A higher voice's harmonics lie farther apart, so its
 * neighbouring low bands differ more: 2 s stretches of one espeak-ng voice give vectors with a cosine of
 * 0.66 or more, two voices a pitch apart 0.14 or less (the boat talk twice, 16 pieces, 2026-11-29), and the
 * manifest's sameSpeakerCosine lies between. Telling real people apart is the real model's job.
 */
function wespeakerFiles(): RepoFiles {
  const g = new Graph('tiny-wespeaker');
  g.input('feats', 'float32', [1, 'T', 80]);
  const slice = (from: number, to: number) => g.node('Slice', ['feats', g.int64(`from${from}`, [from]), g.int64(`to${from}`, [to]), g.int64(`axis${from}`, [2])]);
  const step = g.node('Sub', [slice(1, 80), slice(0, 79)]);
  const spread = g.node('ReduceMean', [g.node('Mul', [step, step])], undefined, { axes: ints([1]), keepdims: int(0) });
  const logged = g.node('Log', [g.node('Add', [spread, g.const('tiny', 'float32', [1], Float32Array.of(1e-6))])]);
  g.node('Sub', [logged, g.node('ReduceMean', [logged], undefined, { axes: ints([1]), keepdims: int(1) })], ['embs']);
  g.output('embs', 'float32', [1, FIXTURE_DIMS.speaker_embedding]);
  return { 'speaker-embedding.onnx': encodeModel(g) };
}

// ---------------------------------------------------------------- manifest

/**
 * Generates every fixture repo under `outDir` and writes `outDir/manifest.json`.
 * Deterministic: the same bytes (and so the same sha256s) on every run.
 * @example
 * const { hubDir, manifestPath } = await makeFixtureModels('test/.tmp/fixture-hub');
 */
export async function makeFixtureModels(outDir: string): Promise<FixtureSet> {
  const hubDir = resolve(outDir);
  mkdirSync(hubDir, { recursive: true });
  const whisper = writeRepo(hubDir, 'vidx-test/tiny-whisper', whisperFiles());
  const clip = writeRepo(hubDir, 'vidx-test/tiny-clip', clipFiles());
  const e5 = writeRepo(hubDir, 'vidx-test/tiny-e5', bertFiles());
  const siglip = writeRepo(hubDir, 'vidx-test/tiny-siglip', siglipFiles());
  const sface = writeRepo(hubDir, 'vidx-test/tiny-sface', sfaceFiles());
  const pyannote = writeRepo(hubDir, 'vidx-test/tiny-pyannote', pyannoteFiles());
  const wespeaker = writeRepo(hubDir, 'vidx-test/tiny-wespeaker', wespeakerFiles());
  const llm = writeRepo(hubDir, 'vidx-test/tiny-llm', { 'tiny-llm.gguf': tinyGguf() });
  // A GGUF cut after its first bytes: the registry takes it (its size and hash are the manifest's), llama.cpp cannot load it.
  const brokenLlm = writeRepo(hubDir, 'vidx-test/tiny-llm-broken', { 'broken.gguf': tinyGguf().slice(0, 256) });
  const manifest: FixtureManifest = {
    schemaVersion: 1,
    models: [
      {
        id: 'tiny-whisper',
        task: 'automatic-speech-recognition',
        capability: 'asr',
        family: 'whisper',
        repo: 'vidx-test/tiny-whisper',
        revision: revisionOf(whisper),
        default: true,
        dtype: { encoder_model: 'fp32', decoder_model_merged: 'q8' },
        license: 'MIT',
        dimensions: null,
        files: whisper,
        notes: 'Generated fixture: hand-set decoder, says a fixed sentence.',
      },
      {
        id: 'tiny-clip',
        task: 'zero-shot-image-classification',
        capability: 'image_text',
        family: 'clip',
        repo: 'vidx-test/tiny-clip',
        revision: revisionOf(clip),
        default: true,
        dtype: 'q8',
        license: 'MIT',
        dimensions: FIXTURE_DIMS.image_text,
        files: clip,
        notes: 'Generated fixture.',
      },
      {
        id: 'tiny-siglip',
        task: 'zero-shot-image-classification',
        capability: 'image_text',
        family: 'siglip',
        repo: 'vidx-test/tiny-siglip',
        revision: revisionOf(siglip),
        default: false,
        dtype: 'q8',
        license: 'MIT',
        dimensions: FIXTURE_DIMS.image_text,
        files: siglip,
        notes: 'Generated fixture (not a default): exercises the SigLIP path.',
      },
      {
        id: 'tiny-e5',
        task: 'feature-extraction',
        capability: 'text_embedding',
        family: 'e5',
        repo: 'vidx-test/tiny-e5',
        revision: revisionOf(e5),
        default: true,
        dtype: 'q8',
        license: 'MIT',
        dimensions: FIXTURE_DIMS.text_embedding,
        files: e5,
        notes: 'Generated fixture.',
      },
      {
        id: 'tiny-sface',
        task: 'face-embedding',
        capability: 'face_embedding',
        family: 'sface',
        repo: 'vidx-test/tiny-sface',
        revision: revisionOf(sface),
        default: true,
        dtype: 'fp32',
        license: 'MIT',
        dimensions: FIXTURE_DIMS.face_embedding,
        files: sface,
        notes: 'Generated stand-in for SFace: same inputs and outputs, no face knowledge.',
      },
      {
        id: 'tiny-pyannote',
        task: 'speaker-segmentation',
        capability: 'speaker_segmentation',
        family: 'pyannote',
        repo: 'vidx-test/tiny-pyannote',
        revision: revisionOf(pyannote),
        default: false,
        dtype: 'fp32',
        license: 'MIT',
        credit: 'vidx tests',
        dimensions: null,
        files: pyannote,
        notes: 'Generated stand-in for pyannote segmentation-3.0: same input and output, an energy floor for speech, one local speaker.',
      },
      {
        id: 'tiny-wespeaker',
        task: 'speaker-embedding',
        capability: 'speaker_embedding',
        family: 'wespeaker',
        repo: 'vidx-test/tiny-wespeaker',
        revision: revisionOf(wespeaker),
        default: false,
        dtype: 'fp32',
        license: 'MIT',
        credit: 'vidx tests',
        dimensions: FIXTURE_DIMS.speaker_embedding,
        sameSpeakerCosine: TINY_SAME_SPEAKER,
        files: wespeaker,
        notes: 'Generated stand-in for WeSpeaker ResNet34: same input and output, how much neighbouring mel bands differ.',
      },
      {
        id: 'tiny-llm',
        task: 'text-generation',
        capability: 'answer',
        family: 'gguf',
        repo: 'vidx-test/tiny-llm',
        revision: revisionOf(llm),
        default: false,
        dtype: 'fp32',
        license: 'MIT',
        credit: 'vidx tests',
        dimensions: null,
        files: llm,
        notes: 'Generated llama-architecture GGUF with random weights (scripts/make-fixture-gguf.ts): it writes noise, held to JSON by the grammar.',
      },
      {
        id: 'tiny-llm-broken',
        task: 'text-generation',
        capability: 'answer',
        family: 'gguf',
        repo: 'vidx-test/tiny-llm-broken',
        revision: revisionOf(brokenLlm),
        default: false,
        dtype: 'fp32',
        license: 'MIT',
        dimensions: null,
        files: brokenLlm,
        notes: 'A GGUF cut short: installs, and fails to load.',
      },
    ],
  };
  const manifestPath = join(hubDir, 'manifest.json');
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  return { hubDir, manifestPath, manifest };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const out = process.argv[2];
  if (!out) {
    process.stderr.write('usage: tsx scripts/make-fixture-models.ts <outDir>\n');
    process.exit(2);
  }
  const { manifestPath } = await makeFixtureModels(out);
  process.stdout.write(`${manifestPath}\n`);
}
