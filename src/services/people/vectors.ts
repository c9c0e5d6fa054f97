/** Face vectors in and out of SQLite BLOBs (float32, little-endian as the machine writes them). */

/**
 * A face vector as a BLOB.
 * @example
 * toBlob([0.6, 0.8]).length; // 8
 */
export function toBlob(v: ArrayLike<number>): Buffer {
  const f = Float32Array.from(v as ArrayLike<number>);
  return Buffer.from(f.buffer, f.byteOffset, f.byteLength);
}

/**
 * A BLOB back as a vector.
 * @example
 * fromBlob(toBlob([0.6, 0.8])); // Float32Array [0.6, 0.8]
 */
export function fromBlob(b: Buffer): Float32Array {
  return new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
}

/**
 * The unit-length weighted mean of two unit vectors (a person's running centre and what joins it).
 * @example
 * blend([1, 0], 1, [0, 1], 1); // [0.707…, 0.707…]
 */
export function blend(a: ArrayLike<number>, wa: number, b: ArrayLike<number>, wb: number): number[] {
  const out = Array.from({ length: a.length }, (_, i) => a[i] * wa + b[i] * wb);
  const n = Math.hypot(...out) || 1;
  return out.map((x) => x / n);
}
