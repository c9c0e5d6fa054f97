/** Vector encodings of the search index: float32 blobs, sign bits for the coarse pass, cosine on unit vectors. */

/**
 * A Float32Array as a little-endian BLOB (a copy, so the blob owns its bytes).
 * @example
 * toBlob(new Float32Array([1, 0])).length; // 8
 */
export function toBlob(v: Float32Array): Buffer {
  return Buffer.from(v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength));
}

/**
 * A BLOB written by toBlob back as a Float32Array.
 * @example
 * fromBlob(toBlob(new Float32Array([0.5]))); // Float32Array [0.5]
 */
export function fromBlob(b: Buffer): Float32Array {
  const copy = new Uint8Array(b.byteLength);
  copy.set(b);
  return new Float32Array(copy.buffer);
}

/**
 * One bit per dimension, set when the value is positive, packed least significant bit first (the layout
 * sqlite-vec's `bit[N]` columns and `vec_quantize_binary` use).
 * @example
 * signBits(new Float32Array([0.1, -0.2, 0.3, 0, 0, 0, 0, 0.9])); // <Buffer 85>
 */
export function signBits(v: Float32Array): Buffer {
  const out = Buffer.alloc(Math.ceil(v.length / 8));
  for (let i = 0; i < v.length; i++) if (v[i] > 0) out[i >> 3] |= 1 << (i & 7);
  return out;
}

/**
 * Dot product; the cosine similarity of unit vectors.
 * @example
 * dot(new Float32Array([0.6, 0.8]), new Float32Array([1, 0])); // 0.6
 */
export function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) s += a[i] * b[i];
  return s;
}

/**
 * A unit-length copy (the embedders already normalise; vectors from elsewhere may not be).
 * @example
 * unit(new Float32Array([3, 4])); // Float32Array [0.6, 0.8]
 */
export function unit(v: Float32Array): Float32Array {
  let s = 0;
  for (const x of v) s += x * x;
  const n = Math.sqrt(s);
  const out = new Float32Array(v.length);
  if (n > 0) for (let i = 0; i < v.length; i++) out[i] = v[i] / n;
  return out;
}
