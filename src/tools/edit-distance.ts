/**
 * Edit distance where a swap of two neighbouring letters is one edit, as a typist makes it ("bugdet" for
 * "budget", "soalr" for "solar"): the Damerau–Levenshtein distance (Lowrance–Wagner). Levenshtein counts
 * such a swap as two edits, and neither fastest-levenshtein nor mnemonist offers a distance with swaps.
 *
 * The unrestricted distance, not the "optimal string alignment" one: OSA breaks the triangle inequality
 * (OSA("ca", "abc") is 3, though "ca" → "ac" → "abc" takes two edits), and a BK-tree finds every word
 * within reach only under a metric. The two differ only where a swapped pair is edited again.
 */

/** The rows of the last comparison, kept between calls: the vocabulary's BK-trees compare thousands of short words. */
let table = new Int32Array(0);

/**
 * The number of insertions, deletions, substitutions and swaps of two neighbouring characters that turn
 * one string into the other (compared by UTF-16 code unit, as the folded words of a search are).
 * @example
 * damerauDistance('bugdet', 'budget'); // 1
 * damerauDistance('ca', 'abc'); // 2
 * damerauDistance('sandpapper', 'sandpaper'); // 1
 */
export function damerauDistance(a: string, b: string): number {
  if (a === b) return 0;
  const la = a.length;
  const lb = b.length;
  if (la === 0 || lb === 0) return la + lb;
  const width = lb + 2;
  const size = (la + 2) * width;
  if (table.length < size) table = new Int32Array(size * 2);
  const d = table;
  const far = la + lb;
  // Row and column 0 hold "infinity", row and column 1 the distances from the empty string.
  d[0] = far;
  for (let i = 0; i <= la; i++) {
    d[(i + 1) * width] = far;
    d[(i + 1) * width + 1] = i;
  }
  for (let j = 0; j <= lb; j++) {
    d[j + 1] = far;
    d[width + j + 1] = j;
  }
  // The last row each character of `a` was seen in.
  const lastRow = new Map<number, number>();
  for (let i = 1; i <= la; i++) {
    const ca = a.charCodeAt(i - 1);
    // The last column in this row where the characters matched.
    let lastMatch = 0;
    for (let j = 1; j <= lb; j++) {
      const cb = b.charCodeAt(j - 1);
      const i1 = lastRow.get(cb) ?? 0;
      const j1 = lastMatch;
      const cost = ca === cb ? 0 : 1;
      if (cost === 0) lastMatch = j;
      const substitute = d[i * width + j] + cost;
      const insert = d[(i + 1) * width + j] + 1;
      const remove = d[i * width + j + 1] + 1;
      const swap = d[i1 * width + j1] + (i - i1 - 1) + 1 + (j - j1 - 1);
      d[(i + 1) * width + j + 1] = Math.min(substitute, insert, remove, swap);
    }
    lastRow.set(ca, i);
  }
  return d[(la + 1) * width + lb + 1];
}
