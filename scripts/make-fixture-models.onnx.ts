/**
 * A minimal ONNX writer: just enough protobuf to serialise the tiny graphs the fixture
 * generator builds. Hand-rolled so that generating fixtures needs nothing beyond Node
 * (no Python, no protobuf package) and runs the same on a developer machine and in CI.
 *
 * Field numbers follow onnx/onnx.proto (ModelProto, GraphProto, NodeProto, AttributeProto,
 * TensorProto, ValueInfoProto, TypeProto). Repeated scalars are written unpacked, which every
 * protobuf parser accepts for proto2 messages.
 */

/** Element types the fixtures and stand-ins use, with their ONNX TensorProto.DataType codes. */
export type ElemType = 'float32' | 'uint8' | 'int8' | 'int32' | 'int64' | 'bool';
const DATA_TYPE: Record<ElemType, number> = { float32: 1, uint8: 2, int8: 3, int32: 6, int64: 7, bool: 9 };

/**
 * Deterministic pseudo-random floats in [-1, 1) (mulberry32), for weights whose values do not matter.
 * @example
 * randomFloats(4, 1); // Float32Array(4) [...]
 */
export function randomFloats(n: number, seed: number): Float32Array {
  let a = seed >>> 0;
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    out[i] = ((t ^ (t >>> 14)) >>> 0) / 4294967296 * 2 - 1;
  }
  return out;
}

/** A dimension: a fixed size or a symbolic name (dim_param). */
export type Dim = number | string;

class Writer {
  private chunks: Uint8Array[] = [];
  private size = 0;

  private push(bytes: Uint8Array): void {
    this.chunks.push(bytes);
    this.size += bytes.length;
  }

  varint(value: number | bigint): void {
    // Negative int64 values are encoded as their 64-bit two's complement, ten bytes long.
    let v = BigInt.asUintN(64, BigInt(value));
    const out: number[] = [];
    do {
      let byte = Number(v & 0x7fn);
      v >>= 7n;
      if (v > 0n) byte |= 0x80;
      out.push(byte);
    } while (v > 0n);
    this.push(Uint8Array.from(out));
  }

  key(field: number, wire: number): void {
    this.varint((field << 3) | wire);
  }

  int(field: number, value: number | bigint): void {
    this.key(field, 0);
    this.varint(value);
  }

  float(field: number, value: number): void {
    this.key(field, 5);
    const b = new Uint8Array(4);
    new DataView(b.buffer).setFloat32(0, value, true);
    this.push(b);
  }

  bytes(field: number, value: Uint8Array): void {
    this.key(field, 2);
    this.varint(value.length);
    this.push(value);
  }

  string(field: number, value: string): void {
    this.bytes(field, new TextEncoder().encode(value));
  }

  message(field: number, build: (w: Writer) => void): void {
    const inner = new Writer();
    build(inner);
    this.bytes(field, inner.finish());
  }

  finish(): Uint8Array {
    const out = new Uint8Array(this.size);
    let offset = 0;
    for (const c of this.chunks) {
      out.set(c, offset);
      offset += c.length;
    }
    return out;
  }
}

/** An attribute value, tagged so ints and floats are never confused. */
export type Attr =
  | { kind: 'int'; value: number }
  | { kind: 'float'; value: number }
  | { kind: 'ints'; value: number[] }
  | { kind: 'string'; value: string }
  | { kind: 'graph'; value: Graph };

/** @example node('Gather', ['w', 'ids'], ['x'], { axis: int(0) }) */
export const int = (value: number): Attr => ({ kind: 'int', value });
/** @example { alpha: float(0.5) } */
export const float = (value: number): Attr => ({ kind: 'float', value });
/** @example { perm: ints([0, 2, 1]) } */
export const ints = (value: number[]): Attr => ({ kind: 'ints', value });
/** @example { then_branch: graph(sub) } */
export const graph = (value: Graph): Attr => ({ kind: 'graph', value });

interface ValueInfo {
  name: string;
  type: ElemType;
  shape?: Dim[];
}

interface Initializer {
  name: string;
  type: ElemType;
  dims: number[];
  raw: Uint8Array;
}

interface Node {
  op: string;
  inputs: string[];
  outputs: string[];
  attrs: Record<string, Attr>;
}

/**
 * A graph under construction: inputs, outputs, constant tensors and nodes.
 * @example
 * const g = new Graph('tiny');
 * g.input('x', 'float32', ['batch', 4]);
 * g.const('w', 'float32', [4, 2], new Float32Array(8));
 * g.node('MatMul', ['x', 'w'], ['y']);
 * g.output('y', 'float32', ['batch', 2]);
 */
export class Graph {
  readonly inputs: ValueInfo[] = [];
  readonly outputs: ValueInfo[] = [];
  readonly initializers: Initializer[] = [];
  readonly nodes: Node[] = [];
  private counter = 0;

  constructor(readonly name: string) {}

  input(name: string, type: ElemType, shape: Dim[]): this {
    this.inputs.push({ name, type, shape });
    return this;
  }

  output(name: string, type: ElemType, shape?: Dim[]): this {
    this.outputs.push({ name, type, shape });
    return this;
  }

  /** Adds a constant tensor (initializer). Data is stored little-endian in raw_data. */
  const(name: string, type: ElemType, dims: number[], data: Float32Array | BigInt64Array | Int32Array | Int8Array | Uint8Array): string {
    const raw = new Uint8Array(data.buffer, data.byteOffset, data.byteLength).slice();
    this.initializers.push({ name, type, dims, raw });
    return name;
  }

  /** Adds an int64 constant from plain numbers. */
  int64(name: string, values: number[], dims: number[] = [values.length]): string {
    return this.const(name, 'int64', dims, BigInt64Array.from(values.map((v) => BigInt(v))));
  }

  /** Adds a node; returns its first output name. */
  node(op: string, inputs: string[], outputs?: string[], attrs: Record<string, Attr> = {}): string {
    const outs = outputs ?? [`${op.toLowerCase()}_${this.counter++}`];
    this.nodes.push({ op, inputs, outputs: outs, attrs });
    return outs[0];
  }
}

function writeValueInfo(w: Writer, v: ValueInfo): void {
  w.string(1, v.name);
  w.message(2, (type) =>
    type.message(1, (tensor) => {
      tensor.int(1, DATA_TYPE[v.type]);
      if (v.shape) {
        tensor.message(2, (shape) => {
          for (const d of v.shape ?? []) {
            shape.message(1, (dim) => (typeof d === 'number' ? dim.int(1, d) : dim.string(2, d)));
          }
        });
      }
    }),
  );
}

function writeAttr(w: Writer, name: string, a: Attr): void {
  w.string(1, name);
  switch (a.kind) {
    case 'float':
      w.float(2, a.value);
      w.int(20, 1);
      break;
    case 'int':
      w.int(3, a.value);
      w.int(20, 2);
      break;
    case 'string':
      w.string(4, a.value);
      w.int(20, 3);
      break;
    case 'graph':
      w.message(6, (g) => writeGraph(g, a.value));
      w.int(20, 5);
      break;
    case 'ints':
      for (const v of a.value) w.int(8, v);
      w.int(20, 7);
      break;
  }
}

function writeGraph(w: Writer, g: Graph): void {
  for (const n of g.nodes) {
    w.message(1, (node) => {
      for (const i of n.inputs) node.string(1, i);
      for (const o of n.outputs) node.string(2, o);
      node.string(3, `${n.outputs[0]}_node`);
      node.string(4, n.op);
      for (const [k, v] of Object.entries(n.attrs)) node.message(5, (attr) => writeAttr(attr, k, v));
    });
  }
  w.string(2, g.name);
  for (const t of g.initializers) {
    w.message(5, (tensor) => {
      for (const d of t.dims) tensor.int(1, d);
      tensor.int(2, DATA_TYPE[t.type]);
      tensor.string(8, t.name);
      tensor.bytes(9, t.raw);
    });
  }
  for (const i of g.inputs) w.message(11, (v) => writeValueInfo(v, i));
  for (const o of g.outputs) w.message(12, (v) => writeValueInfo(v, o));
}

/**
 * Serialises a graph as an ONNX model (IR 8, default opset 17).
 * @example
 * writeFileSync('model.onnx', encodeModel(g));
 */
export function encodeModel(g: Graph, opset = 17): Uint8Array {
  const w = new Writer();
  w.int(1, 8);
  w.string(2, 'vidx-fixture');
  w.string(3, '1');
  w.message(7, (graphWriter) => writeGraph(graphWriter, g));
  w.message(8, (op) => {
    op.string(1, '');
    op.int(2, opset);
  });
  return w.finish();
}
