/**
 * Transformer building blocks for the real-shaped stand-in models, on top of the fixture ONNX writer.
 * Weights are random (their values do not change speed), scaled so activations stay finite: NaN and
 * denormals would make the timings lie.
 *
 * With `quant: true` every MatMul against a weight is written the way onnxruntime's `quantize_dynamic`
 * writes the hub's `*_quantized.onnx` files: DynamicQuantizeLinear on the activation (uint8), MatMulInteger
 * with an int8 weight, Cast, and a Mul by the two scales; an embedding table is int8 behind Gather and
 * DequantizeLinear; a Conv becomes ConvInteger (uint8 weight). Activation × activation MatMuls (attention
 * scores) stay float, as `quantize_dynamic` leaves them.
 */
import { randomFillSync } from 'node:crypto';
import { float, type Graph, int, ints, randomFloats } from './make-fixture-models.onnx.js';

let seed = 1000;

/**
 * A graph plus a naming counter and the quantisation switch.
 * @example
 * const nn = new Nn(new Graph('enc'), false);
 * const y = nn.linear('x', 512, 512);
 */
export class Nn {
  private n = 0;

  constructor(
    readonly g: Graph,
    readonly quant: boolean,
  ) {}

  /** A fresh value name. */
  name(prefix: string): string {
    return `${prefix}_${this.n++}`;
  }

  /** Random float32 weights, uniform in ±scale. */
  f32(dims: number[], scale: number): string {
    const data = randomFloats(dims.reduce((a, b) => a * b, 1), seed++);
    for (let i = 0; i < data.length; i++) data[i] *= scale;
    return this.g.const(this.name('w'), 'float32', dims, data);
  }

  /** A constant float32 tensor filled with one value (a scalar when `dims` is empty). */
  fill(dims: number[], value: number): string {
    return this.g.const(this.name('c'), 'float32', dims, new Float32Array(dims.reduce((a, b) => a * b, 1)).fill(value));
  }

  /** Random int8 (or uint8) weights, all 256 levels used, as a dynamically quantised weight is. */
  private q(dims: number[], type: 'int8' | 'uint8'): string {
    const size = dims.reduce((a, b) => a * b, 1);
    const data = type === 'int8' ? new Int8Array(size) : new Uint8Array(size);
    for (let at = 0; at < size; at += 65536) randomFillSync(data, at, Math.min(65536, size - at));
    return this.g.const(this.name('wq'), type, dims, data);
  }

  op(op: string, inputs: string[], attrs: Parameters<Graph['node']>[3] = {}): string {
    return this.g.node(op, inputs, [this.name(op.toLowerCase())], attrs);
  }

  /** Dequantised int8 weights scaled to ±range: `[q, scale, zeroPoint]`. */
  private qWeight(dims: number[], range: number, type: 'int8' | 'uint8' = 'int8'): [string, string, string] {
    const w = this.q(dims, type);
    const scale = this.g.const(this.name('ws'), 'float32', [], Float32Array.of(range / 128));
    const zp = this.g.const(this.name('wz'), type, [], type === 'int8' ? Int8Array.of(0) : Uint8Array.of(128));
    return [w, scale, zp];
  }

  /** x · W (+ b) for W of [inDim, outDim]; quantised like quantize_dynamic when `quant`. */
  linear(x: string, inDim: number, outDim: number, bias = true, range = 1 / Math.sqrt(inDim)): string {
    let y: string;
    if (this.quant) y = this.matMulInteger(x, this.qWeight([inDim, outDim], range));
    else y = this.op('MatMul', [x, this.f32([inDim, outDim], range)]);
    return bias ? this.op('Add', [y, this.f32([outDim], 0.02)]) : y;
  }

  /** The quantize_dynamic MatMul pattern against an int8 weight `[q, scale, zp]`. */
  matMulInteger(x: string, [w, wScale, wZp]: [string, string, string]): string {
    const [xq, xs, xz] = [this.name('xq'), this.name('xs'), this.name('xz')];
    this.g.node('DynamicQuantizeLinear', [x], [xq, xs, xz]);
    const acc = this.op('MatMulInteger', [xq, w, xz, wZp]);
    const accF = this.op('Cast', [acc], { to: int(1) });
    return this.op('Mul', [accF, this.op('Mul', [xs, wScale])]);
  }

  /** An embedding table of [rows, dim]: int8 behind Gather + DequantizeLinear when `quant`. Returns the lookup and the table. */
  embedding(ids: string, rows: number, dim: number, range = 0.02): { out: string; table: [string, string, string] | string } {
    if (!this.quant) {
      const table = this.f32([rows, dim], range);
      return { out: this.op('Gather', [table, ids], { axis: int(0) }), table };
    }
    const table = this.qWeight([rows, dim], range);
    const gathered = this.op('Gather', [table[0], ids], { axis: int(0) });
    return { out: this.op('DequantizeLinear', [gathered, table[1], table[2]]), table };
  }

  /** A 1-D or 2-D convolution with bias, quantised to ConvInteger when `quant`. */
  conv(x: string, outCh: number, inCh: number, kernel: number[], strides: number[], pads: number[], bias = true): string {
    const dims = [outCh, inCh, ...kernel];
    const fanIn = inCh * kernel.reduce((a, b) => a * b, 1);
    const attrs = { kernel_shape: ints(kernel), strides: ints(strides), pads: ints(pads) };
    let y: string;
    if (this.quant) {
      const [w, ws, wz] = this.qWeight(dims, 1 / Math.sqrt(fanIn), 'uint8');
      const [xq, xs, xz] = [this.name('xq'), this.name('xs'), this.name('xz')];
      this.g.node('DynamicQuantizeLinear', [x], [xq, xs, xz]);
      const acc = this.op('Cast', [this.op('ConvInteger', [xq, w, xz, wz], attrs)], { to: int(1) });
      y = this.op('Mul', [acc, this.op('Mul', [xs, ws])]);
      if (bias) y = this.op('Add', [y, this.f32([outCh, ...kernel.map(() => 1)], 0.02)]);
    } else {
      y = this.op('Conv', bias ? [x, this.f32(dims, 1 / Math.sqrt(fanIn)), this.f32([outCh], 0.02)] : [x, this.f32(dims, 1 / Math.sqrt(fanIn))], attrs);
    }
    return y;
  }

  layerNorm(x: string, dim: number): string {
    return this.op('LayerNormalization', [x, this.fill([dim], 1), this.fill([dim], 0)], { axis: int(-1), epsilon: float(1e-5) });
  }

  /** Exact GELU, written with Erf as the exporters write it (onnxruntime fuses it). */
  gelu(x: string): string {
    const erf = this.op('Erf', [this.op('Div', [x, this.fill([], Math.SQRT2)])]);
    return this.op('Mul', [this.op('Mul', [x, this.fill([], 0.5)]), this.op('Add', [erf, this.fill([], 1)])]);
  }

  /** CLIP's x · sigmoid(1.702 x). */
  quickGelu(x: string): string {
    return this.op('Mul', [x, this.op('Sigmoid', [this.op('Mul', [x, this.fill([], 1.702)])])]);
  }

  /** [b, s, heads·hd] → [b, heads, s, hd]. */
  splitHeads(x: string, heads: number, headDim: number): string {
    const r = this.op('Reshape', [x, this.g.int64(this.name('shape'), [0, 0, heads, headDim])]);
    return this.op('Transpose', [r], { perm: ints([0, 2, 1, 3]) });
  }

  /** Scaled dot-product attention over head-split q, k, v ([b, h, s, hd]), with an optional additive mask; returns [b, s, h·hd]. */
  attend(q: string, k: string, v: string, heads: number, headDim: number, mask?: string): string {
    const qs = this.op('Mul', [q, this.fill([], 1 / Math.sqrt(headDim))]);
    let scores = this.op('MatMul', [qs, this.op('Transpose', [k], { perm: ints([0, 1, 3, 2]) })]);
    if (mask) scores = this.op('Add', [scores, mask]);
    const ctx = this.op('MatMul', [this.op('Softmax', [scores], { axis: int(-1) }), v]);
    const t = this.op('Transpose', [ctx], { perm: ints([0, 2, 1, 3]) });
    return this.op('Reshape', [t, this.g.int64(this.name('shape'), [0, 0, heads * headDim])]);
  }

  /** Full self-attention block: q/k/v projections, attention, output projection. */
  selfAttention(x: string, width: number, heads: number, opts: { kBias?: boolean; mask?: string } = {}): string {
    const hd = width / heads;
    const q = this.splitHeads(this.linear(x, width, width), heads, hd);
    const k = this.splitHeads(this.linear(x, width, width, opts.kBias ?? true), heads, hd);
    const v = this.splitHeads(this.linear(x, width, width), heads, hd);
    return this.linear(this.attend(q, k, v, heads, hd, opts.mask), width, width);
  }

  /** Two-layer MLP with the given activation. */
  mlp(x: string, width: number, hidden: number, act: 'gelu' | 'quickGelu'): string {
    const h = this.linear(x, width, hidden);
    return this.linear(act === 'gelu' ? this.gelu(h) : this.quickGelu(h), hidden, width);
  }

  /** A pre-LN transformer layer (Whisper, CLIP). */
  preLnLayer(x: string, width: number, heads: number, hidden: number, act: 'gelu' | 'quickGelu', kBias = true): string {
    const a = this.op('Add', [x, this.selfAttention(this.layerNorm(x, width), width, heads, { kBias })]);
    return this.op('Add', [a, this.mlp(this.layerNorm(a, width), width, hidden, act)]);
  }

  /** The first `n` positions' rows of a position table of [rows, dim] (n from the sequence axis of `like`). */
  positions(like: string, rows: number, dim: number, start?: string): string {
    const seq = this.op('Gather', [this.op('Shape', [like]), this.g.int64(this.name('i'), [1], [])], { axis: int(0) });
    const from = start ?? this.g.int64(this.name('zero'), [0], []);
    const idx = this.op('Range', [from, this.op('Add', [from, seq]), this.g.int64(this.name('one'), [1], [])]);
    return this.op('Gather', [this.f32([rows, dim], 0.02), idx], { axis: int(0) });
  }
}
