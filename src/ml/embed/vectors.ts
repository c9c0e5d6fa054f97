/** Small vector helpers shared by the embedders. */

/**
 * Rows of a row-major [n, dims] buffer as separate, L2-normalised Float32Arrays.
 * @example
 * splitRows(new Float32Array([3, 4, 0, 2]), 2); // [[0.6, 0.8], [0, 1]]
 */
export function splitRows(data: Float32Array, dims: number): Float32Array[] {
  const rows: Float32Array[] = [];
  for (let i = 0; i + dims <= data.length; i += dims) rows.push(l2normalize(data.slice(i, i + dims)));
  return rows;
}

/**
 * Scales a vector to unit length in place (a zero vector stays zero) and returns it.
 * @example
 * l2normalize(new Float32Array([3, 4])); // Float32Array [0.6, 0.8]
 */
export function l2normalize(v: Float32Array): Float32Array {
  let sum = 0;
  for (const x of v) sum += x * x;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < v.length; i++) v[i] /= norm;
  return v;
}

/**
 * Runs `fn` over `items` in batches of `size`, in an order that groups similar lengths (less
 * padding), and returns results in the input order.
 * @example
 * await inBatches(texts, 16, (t) => t.length, (batch) => embed(batch));
 */
export async function inBatches<T, R>(
  items: T[],
  size: number,
  lengthOf: (item: T) => number,
  fn: (batch: T[]) => Promise<R[]>,
): Promise<R[]> {
  const order = items.map((_, i) => i).sort((a, b) => lengthOf(items[a]) - lengthOf(items[b]));
  const out = new Array<R>(items.length);
  for (let i = 0; i < order.length; i += size) {
    const idx = order.slice(i, i + size);
    const res = await fn(idx.map((j) => items[j]));
    if (res.length !== idx.length) throw new Error(`batch returned ${res.length} results for ${idx.length} inputs`);
    idx.forEach((j, k) => {
      out[j] = res[k];
    });
  }
  return out;
}
