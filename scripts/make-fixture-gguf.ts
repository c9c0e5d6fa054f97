/**
 * A tiny llama-architecture GGUF (format v3) for the tests of the answer model: one transformer block of
 * width 64, random weights, a SentencePiece vocabulary of byte tokens and single characters, so llama.cpp
 * (through node-llama-cpp) loads it, tokenizes any text and samples under a JSON grammar. What it writes is
 * noise; the grammar keeps it valid JSON, which is all the tests of loading, streaming and checking ask of it.
 */
import { randomFloats } from './make-fixture-models.onnx.js';

const EMBED = 64;
const HEADS = 2;
const FFN = 128;
const CONTEXT = 2048;

/** GGUF value types (gguf.h). */
const T = { uint32: 4, int32: 5, float32: 6, string: 8, array: 9 } as const;
/** The ggml tensor type of plain 32-bit floats. */
const GGML_F32 = 0;
const ALIGNMENT = 32;

type Value = { type: 'uint32'; value: number } | { type: 'int32'; value: number } | { type: 'float32'; value: number } | { type: 'string'; value: string } | { type: 'strings'; value: string[] } | { type: 'floats'; value: number[] } | { type: 'ints'; value: number[] };

/** A little-endian byte writer that grows as it goes. */
class Bytes {
  private buf = Buffer.alloc(1 << 16);
  length = 0;

  private room(n: number): void {
    if (this.length + n <= this.buf.length) return;
    const next = Buffer.alloc(Math.max(this.buf.length * 2, this.length + n));
    this.buf.copy(next, 0, 0, this.length);
    this.buf = next;
  }

  u32(v: number): void {
    this.room(4);
    this.buf.writeUInt32LE(v, this.length);
    this.length += 4;
  }

  i32(v: number): void {
    this.room(4);
    this.buf.writeInt32LE(v, this.length);
    this.length += 4;
  }

  u64(v: number): void {
    this.room(8);
    this.buf.writeBigUInt64LE(BigInt(v), this.length);
    this.length += 8;
  }

  f32(v: number): void {
    this.room(4);
    this.buf.writeFloatLE(v, this.length);
    this.length += 4;
  }

  str(s: string): void {
    const b = Buffer.from(s, 'utf8');
    this.u64(b.length);
    this.raw(b);
  }

  raw(b: Uint8Array): void {
    this.room(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
  }

  pad(to: number): void {
    const n = (to - (this.length % to)) % to;
    this.raw(new Uint8Array(n));
  }

  bytes(): Uint8Array {
    return this.buf.subarray(0, this.length);
  }
}

function writeValue(w: Bytes, v: Value): void {
  if (v.type === 'uint32' || v.type === 'int32' || v.type === 'float32') {
    w.u32(T[v.type]);
    if (v.type === 'uint32') w.u32(v.value);
    else if (v.type === 'int32') w.i32(v.value);
    else w.f32(v.value);
    return;
  }
  if (v.type === 'string') {
    w.u32(T.string);
    w.str(v.value);
    return;
  }
  // Arrays: the element type, the count, the elements.
  w.u32(T.array);
  if (v.type === 'strings') {
    w.u32(T.string);
    w.u64(v.value.length);
    for (const s of v.value) w.str(s);
  } else {
    w.u32(v.type === 'floats' ? T.float32 : T.int32);
    w.u64(v.value.length);
    for (const x of v.value) v.type === 'floats' ? w.f32(x) : w.i32(x);
  }
}

/** The vocabulary: unknown, begin, end, the 256 byte tokens, then the printable ASCII characters (space as ▁). */
function vocabulary(): { tokens: string[]; scores: number[]; types: number[] } {
  const tokens = ['<unk>', '<s>', '</s>'];
  const types = [2, 3, 3];
  for (let b = 0; b < 256; b++) {
    tokens.push(`<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`);
    types.push(6);
  }
  for (let c = 33; c < 127; c++) {
    tokens.push(String.fromCharCode(c));
    types.push(1);
  }
  tokens.push('▁');
  types.push(1);
  return { tokens, scores: tokens.map((_, i) => -i), types };
}

/**
 * The bytes of the GGUF file. Deterministic: the same bytes (and sha256) every run.
 * @example
 * writeFileSync('tiny-llm.gguf', tinyGguf());
 */
export function tinyGguf(): Uint8Array {
  const vocab = vocabulary();
  const n = vocab.tokens.length;
  const meta: Array<[string, Value]> = [
    ['general.architecture', { type: 'string', value: 'llama' }],
    ['general.name', { type: 'string', value: 'vidx tiny answer model' }],
    ['general.alignment', { type: 'uint32', value: ALIGNMENT }],
    ['llama.context_length', { type: 'uint32', value: CONTEXT }],
    ['llama.embedding_length', { type: 'uint32', value: EMBED }],
    ['llama.block_count', { type: 'uint32', value: 1 }],
    ['llama.feed_forward_length', { type: 'uint32', value: FFN }],
    ['llama.attention.head_count', { type: 'uint32', value: HEADS }],
    ['llama.attention.head_count_kv', { type: 'uint32', value: HEADS }],
    ['llama.attention.layer_norm_rms_epsilon', { type: 'float32', value: 1e-5 }],
    ['llama.rope.dimension_count', { type: 'uint32', value: EMBED / HEADS }],
    ['tokenizer.ggml.model', { type: 'string', value: 'llama' }],
    ['tokenizer.ggml.tokens', { type: 'strings', value: vocab.tokens }],
    ['tokenizer.ggml.scores', { type: 'floats', value: vocab.scores }],
    ['tokenizer.ggml.token_type', { type: 'ints', value: vocab.types }],
    ['tokenizer.ggml.unknown_token_id', { type: 'uint32', value: 0 }],
    ['tokenizer.ggml.bos_token_id', { type: 'uint32', value: 1 }],
    ['tokenizer.ggml.eos_token_id', { type: 'uint32', value: 2 }],
  ];
  // ggml lists a tensor's dimensions innermost first: a [rows × columns] matrix is [columns, rows].
  const tensors: Array<[string, number[]]> = [
    ['token_embd.weight', [EMBED, n]],
    ['output_norm.weight', [EMBED]],
    ['output.weight', [EMBED, n]],
    ['blk.0.attn_norm.weight', [EMBED]],
    ['blk.0.attn_q.weight', [EMBED, EMBED]],
    ['blk.0.attn_k.weight', [EMBED, EMBED]],
    ['blk.0.attn_v.weight', [EMBED, EMBED]],
    ['blk.0.attn_output.weight', [EMBED, EMBED]],
    ['blk.0.ffn_norm.weight', [EMBED]],
    ['blk.0.ffn_gate.weight', [EMBED, FFN]],
    ['blk.0.ffn_up.weight', [EMBED, FFN]],
    ['blk.0.ffn_down.weight', [FFN, EMBED]],
  ];
  const w = new Bytes();
  w.raw(Buffer.from('GGUF', 'latin1'));
  w.u32(3);
  w.u64(tensors.length);
  w.u64(meta.length);
  for (const [key, value] of meta) {
    w.str(key);
    writeValue(w, value);
  }
  const sizes = tensors.map(([, dims]) => dims.reduce((a, b) => a * b, 1) * 4);
  let offset = 0;
  tensors.forEach(([name, dims], i) => {
    w.str(name);
    w.u32(dims.length);
    for (const d of dims) w.u64(d);
    w.u32(GGML_F32);
    w.u64(offset);
    offset += Math.ceil(sizes[i]! / ALIGNMENT) * ALIGNMENT;
  });
  w.pad(ALIGNMENT);
  tensors.forEach(([name, dims], i) => {
    const count = dims.reduce((a, b) => a * b, 1);
    // Norm weights are ones (a norm of random sign would flip the signal); matrices are small random values.
    const values = name.endsWith('norm.weight') ? new Float32Array(count).fill(1) : randomFloats(count, 100 + i).map((x) => x * 0.2);
    w.raw(new Uint8Array(values.buffer));
    w.pad(ALIGNMENT);
  });
  return w.bytes();
}
