/**
 * Edit distance where a swap of two neighbouring letters is one edit, as a typist makes it ("bugdet" for
 * "budget", "soalr" for "solar"): the optimal string alignment distance (Damerau–Levenshtein where no
 * letter is edited again after a swap). Levenshtein counts such a swap as two edits, and neither
 * fastest-levenshtein nor mnemonist offers a distance with swaps.
 */

/** The three rows of the last comparison, kept between calls: a search compares a few dozen short words. */
let rows = new Int32Array(0);

/**
 * The fewest insertions, deletions, substitutions and swaps of two neighbouring characters that turn one
 * string into the other, no character edited twice (compared by UTF-16 code unit, as the folded words of
 * a search are).
 * @example
 * osaDistance('bugdet', 'budget'); // 1
 * osaDistance('sandpapper', 'sandpaper'); // 1
 * osaDistance('ca', 'abc'); // 3: the swapped pair is not edited again
 */
export function osaDistance(a: string, b: string): number {
  if (a === b) return 0;
  const la = a.length;
  const lb = b.length;
  if (la === 0 || lb === 0) return la + lb;
  const width = lb + 1;
  if (rows.length < 3 * width) rows = new Int32Array(6 * width);
  // Three rows in turn: two rows up (for a swap), the row above, this row.
  let twoUp = rows.subarray(0, width);
  let up = rows.subarray(width, 2 * width);
  let row = rows.subarray(2 * width, 3 * width);
  for (let j = 0; j <= lb; j++) up[j] = j;
  for (let i = 1; i <= la; i++) {
    const ca = a.charCodeAt(i - 1);
    row[0] = i;
    for (let j = 1; j <= lb; j++) {
      const cb = b.charCodeAt(j - 1);
      let best = up[j - 1] + (ca === cb ? 0 : 1);
      if (up[j] + 1 < best) best = up[j] + 1;
      if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
      if (i > 1 && j > 1 && ca === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === cb && twoUp[j - 2] + 1 < best) best = twoUp[j - 2] + 1;
      row[j] = best;
    }
    [twoUp, up, row] = [up, row, twoUp];
  }
  return up[lb];
}

/**
 * The string with the characters at `i` and `i + 1` swapped.
 * @example
 * swapAt('bugdet', 2); // 'budget'
 */
export function swapAt(s: string, i: number): string {
  return s.slice(0, i) + s[i + 1] + s[i] + s.slice(i + 2);
}
