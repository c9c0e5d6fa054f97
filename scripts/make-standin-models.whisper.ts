/**
 * Whisper base (and tiny: 384 wide, 6 heads, 4 + 4 layers) with the real shapes: encoder (2 convs + 6 pre-LN layers, d_model 512, 8 heads, 1500
 * positions, 80 mel bins, fp32 like the hub's `encoder_model.onnx`) and the merged decoder (6 layers, vocab
 * 51865, self-attention KV cache, cross-attention K/V computed on the first step and passed back in after,
 * `use_cache_branch`, int8 like `decoder_model_merged_quantized.onnx`).
 *
 * The logits are the real LM head's plus a dominant next-token table, so each window says the same ~100
 * tokens (80 words in 8 timestamped segments: about 150 words a minute of speech) and then ends.
 */
import { byteLevel, byteLevelBpe } from './make-fixture-models.tokenizers.js';
import { encodeModel, Graph, graph, int, ints } from './make-fixture-models.onnx.js';
import { WHISPER_PREPROCESSOR, WHISPER_TOKENIZER_CONFIG, type RepoFiles } from './make-fixture-models.js';
import { Nn } from './make-standin-models.nn.js';

/** Whisper sizes: width, heads, layers (encoder = decoder), MLP width. */
export const WHISPER_SIZES = {
  base: { d: 512, heads: 8, layers: 6, ffn: 2048 },
  tiny: { d: 384, heads: 6, layers: 4, ffn: 1536 },
} as const;
type Size = (typeof WHISPER_SIZES)[keyof typeof WHISPER_SIZES];
const dims = (size: Size) => ({ D: size.d, HEADS: size.heads, HD: size.d / size.heads, FFN: size.ffn, LAYERS: size.layers });
const VOCAB = 51865;
const BPE_SIZE = 50257;

/** The 80 words each stand-in window says (also in the stand-in e5 vocabulary, so passages tokenize as words). */
export const STANDIN_SPEECH = (
  'today we look at the results of our team and what they mean for next quarter ' +
  'first numbers sales grew in spring while costs stayed mostly flat across every region ' +
  'second customers asked about faster search better video summaries plus simpler sharing with colleagues ' +
  'third my roadmap adds offline models small machines support german speech recognition ' +
  'finally thanks everyone questions please lunch starts soon coffee waits outside room seven near windows ' +
  'demo follows then wrap up tomorrow morning early goodbye'
).split(' ');

function tokenizer() {
  const langs = Array.from({ length: 99 }, (_, i) => (i === 0 ? '<|en|>' : i === 1 ? '<|de|>' : `<|lang${i}|>`));
  const specials = ['<|endoftext|>', '<|startoftranscript|>', ...langs, '<|translate|>', '<|transcribe|>', '<|startoflm|>', '<|startofprev|>', '<|nospeech|>', '<|notimestamps|>'];
  const timestamps = Array.from({ length: 1501 }, (_, i) => `<|${(i * 0.02).toFixed(2)}|>`);
  const words = [...new Set(STANDIN_SPEECH)].map((w) => ` ${w}`);
  return byteLevelBpe({ words, specials, plainAdded: timestamps, fillTo: BPE_SIZE });
}

function encoder(size: Size): Graph {
  const { D, HEADS, FFN, LAYERS } = dims(size);
  const nn = new Nn(new Graph('standin-whisper-encoder'), false);
  nn.g.input('input_features', 'float32', ['batch_size', 80, 3000]);
  const c1 = nn.gelu(nn.conv('input_features', D, 80, [3], [1], [1, 1]));
  const c2 = nn.gelu(nn.conv(c1, D, D, [3], [2], [1, 1]));
  let x = nn.op('Add', [nn.op('Transpose', [c2], { perm: ints([0, 2, 1]) }), nn.f32([1500, D], 0.02)]);
  for (let l = 0; l < LAYERS; l++) x = nn.preLnLayer(x, D, HEADS, FFN, 'gelu', false);
  nn.g.node('LayerNormalization', [x, nn.fill([D], 1), nn.fill([D], 0)], ['last_hidden_state'], { axis: int(-1) });
  nn.g.output('last_hidden_state', 'float32', ['batch_size', 1500, D]);
  return nn.g;
}

const past = (l: number, kind: 'decoder' | 'encoder', part: 'key' | 'value') => `past_key_values.${l}.${kind}.${part}`;
const present = (l: number, kind: 'decoder' | 'encoder', part: 'key' | 'value') => `present.${l}.${kind}.${part}`;

/**
 * Cross-attention of one layer, inside an If on `use_cache_branch` as in the merged export: on the first
 * step K/V come from the encoder output and are returned as `present.*.encoder.*`; after that the cached
 * ones are read, and the encoder outputs are empty [0, heads, 1, hd] constants, as optimum's merge_decoders
 * (`_unify_onnx_outputs`) writes them; transformers.js keeps the first step's K/V and ignores these. Returns the attention context, [b, s, d].
 */
function crossAttention(nn: Nn, l: number, q: string, size: Size): string {
  const { D, HEADS, HD } = dims(size);
  const then = new Nn(new Graph(`use_cache_${l}`), true);
  then.g.node('Identity', [then.attend(q, past(l, 'encoder', 'key'), past(l, 'encoder', 'value'), HEADS, HD)], [`then_ctx_${l}`]);
  const dummy = then.g.const(`dummy_${l}`, 'float32', [0, HEADS, 1, HD], new Float32Array(0));
  then.g.node('Identity', [dummy], [`then_k_${l}`]);
  then.g.node('Identity', [dummy], [`then_v_${l}`]);
  then.g.output(`then_ctx_${l}`, 'float32').output(`then_k_${l}`, 'float32').output(`then_v_${l}`, 'float32');
  const sub = new Nn(new Graph(`compute_cross_kv_${l}`), true);
  const k = sub.splitHeads(sub.linear('encoder_hidden_states', D, D, false), HEADS, HD);
  const v = sub.splitHeads(sub.linear('encoder_hidden_states', D, D), HEADS, HD);
  sub.g.node('Identity', [sub.attend(q, k, v, HEADS, HD)], [`else_ctx_${l}`]);
  sub.g.node('Identity', [k], [`else_k_${l}`]);
  sub.g.node('Identity', [v], [`else_v_${l}`]);
  sub.g.output(`else_ctx_${l}`, 'float32').output(`else_k_${l}`, 'float32').output(`else_v_${l}`, 'float32');
  const ctx = `cross_ctx_${l}`;
  nn.g.node('If', ['use_cache_branch'], [ctx, present(l, 'encoder', 'key'), present(l, 'encoder', 'value')], {
    then_branch: graph(then.g),
    else_branch: graph(sub.g),
  });
  return ctx;
}

function decoder(next: number[], size: Size): Graph {
  const { D, HEADS, HD, FFN, LAYERS } = dims(size);
  const nn = new Nn(new Graph('standin-whisper-decoder-merged'), true);
  const g = nn.g;
  g.input('input_ids', 'int64', ['batch_size', 'decoder_sequence_length']);
  g.input('encoder_hidden_states', 'float32', ['batch_size', 'encoder_sequence_length', D]);
  for (let l = 0; l < LAYERS; l++) {
    for (const part of ['key', 'value'] as const) g.input(past(l, 'decoder', part), 'float32', ['batch_size', HEADS, 'past_decoder_sequence_length', HD]);
    for (const part of ['key', 'value'] as const) g.input(past(l, 'encoder', part), 'float32', ['batch_size', HEADS, 'encoder_sequence_length_out', HD]);
  }
  g.input('use_cache_branch', 'bool', [1]);

  const emb = nn.embedding('input_ids', VOCAB, D);
  const pastLen = nn.op('Gather', [nn.op('Shape', [past(0, 'decoder', 'key')]), g.int64('two', [2], [])], { axis: int(0) });
  let x = nn.op('Add', [emb.out, nn.positions('input_ids', 448, D, pastLen)]);
  for (let l = 0; l < LAYERS; l++) {
    const h = nn.layerNorm(x, D);
    const q = nn.splitHeads(nn.linear(h, D, D), HEADS, HD);
    const k = nn.splitHeads(nn.linear(h, D, D, false), HEADS, HD);
    const v = nn.splitHeads(nn.linear(h, D, D), HEADS, HD);
    const kAll = g.node('Concat', [past(l, 'decoder', 'key'), k], [present(l, 'decoder', 'key')], { axis: int(2) });
    const vAll = g.node('Concat', [past(l, 'decoder', 'value'), v], [present(l, 'decoder', 'value')], { axis: int(2) });
    x = nn.op('Add', [x, nn.linear(nn.attend(q, kAll, vAll, HEADS, HD), D, D)]);
    const hc = nn.layerNorm(x, D);
    const qc = nn.splitHeads(nn.linear(hc, D, D), HEADS, HD);
    x = nn.op('Add', [x, nn.linear(crossAttention(nn, l, qc, size), D, D)]);
    x = nn.op('Add', [x, nn.mlp(nn.layerNorm(x, D), D, FFN, 'gelu')]);
  }
  // LM head tied to the token embedding, as in the export: the int8 table, transposed (folded at load).
  const [table, scale, zp] = emb.table as [string, string, string];
  const tableT = nn.op('Transpose', [table], { perm: ints([1, 0]) });
  const lm = nn.matMulInteger(nn.layerNorm(x, D), [tableT, scale, zp]);
  g.int64('next_table', next, [VOCAB]);
  const nextIds = nn.op('Gather', ['next_table', 'input_ids'], { axis: int(0) });
  g.const('onehot_values', 'float32', [2], Float32Array.from([0, 30]));
  const dominant = nn.op('OneHot', [nextIds, g.int64('depth', [VOCAB], []), 'onehot_values'], { axis: int(-1) });
  g.node('Add', [lm, dominant], ['logits']);

  g.output('logits', 'float32', ['batch_size', 'decoder_sequence_length', VOCAB]);
  for (let l = 0; l < LAYERS; l++) {
    for (const part of ['key', 'value'] as const) g.output(present(l, 'decoder', part), 'float32', ['batch_size', HEADS, 'present_decoder_sequence_length', HD]);
    for (const part of ['key', 'value'] as const) g.output(present(l, 'encoder', part), 'float32', ['batch_size', HEADS, 'encoder_sequence_length_out', HD]);
  }
  return g;
}

/**
 * The files of `Xenova/whisper-base` as the manifest names them, with stand-in weights.
 * @example
 * writeRepo(modelsDir, 'Xenova/whisper-base', whisperBaseFiles());
 */
export function whisperBaseFiles(): RepoFiles {
  return whisperFiles(WHISPER_SIZES.base);
}

/**
 * The files of `Xenova/whisper-tiny` (same layout and dtypes as base), with stand-in weights.
 * @example
 * writeRepo(modelsDir, 'Xenova/whisper-tiny', whisperTinyFiles());
 */
export function whisperTinyFiles(): RepoFiles {
  return whisperFiles(WHISPER_SIZES.tiny);
}

function whisperFiles(size: Size): RepoFiles {
  const { D, HEADS, FFN, LAYERS } = dims(size);
  const tok = tokenizer();
  if (tok.size !== VOCAB) throw new Error(`stand-in whisper tokenizer has ${tok.size} tokens, want ${VOCAB}`);
  const id = (s: string) => {
    const v = tok.ids.get(s);
    if (v === undefined) throw new Error(`stand-in whisper: no token ${s}`);
    return v;
  };
  const EOT = id('<|endoftext|>');
  const SOT = id('<|startoftranscript|>');
  const ts = (t: number) => id(`<|${(Math.round(t * 50) / 50).toFixed(2)}|>`);
  // 8 segments of 10 words, 3.6 s apart; each token appears once, so a last-token table can chain them.
  const chain = [id('<|transcribe|>')];
  for (let s = 0; s < 8; s++) {
    chain.push(ts(s * 3.6));
    for (const w of STANDIN_SPEECH.slice(s * 10, s * 10 + 10)) chain.push(id(byteLevel(` ${w}`)));
    if (s === 7) chain.push(id('.'));
    chain.push(ts(s * 3.6 + 3.4));
  }
  chain.push(EOT);
  if (new Set(chain).size !== chain.length) throw new Error('stand-in whisper: a token repeats in the chain');
  const next = new Array<number>(VOCAB).fill(EOT);
  for (let i = 0; i + 1 < chain.length; i++) next[chain[i]] = chain[i + 1];
  next[SOT] = id('<|en|>');

  const common = { decoder_start_token_id: SOT, eos_token_id: EOT, pad_token_id: EOT, bos_token_id: EOT, begin_suppress_tokens: [220, EOT] };
  return {
    'config.json': {
      architectures: ['WhisperForConditionalGeneration'],
      model_type: 'whisper',
      d_model: D,
      encoder_layers: LAYERS,
      decoder_layers: LAYERS,
      encoder_attention_heads: HEADS,
      decoder_attention_heads: HEADS,
      encoder_ffn_dim: FFN,
      decoder_ffn_dim: FFN,
      num_mel_bins: 80,
      max_source_positions: 1500,
      max_target_positions: 448,
      vocab_size: VOCAB,
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
      return_timestamps: false,
    },
    'preprocessor_config.json': WHISPER_PREPROCESSOR,
    'tokenizer.json': JSON.stringify(tok.json),
    'tokenizer_config.json': WHISPER_TOKENIZER_CONFIG,
    'onnx/encoder_model.onnx': encodeModel(encoder(size)),
    'onnx/decoder_model_merged_quantized.onnx': encodeModel(decoder(next, size)),
  };
}
