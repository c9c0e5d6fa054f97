/**
 * Average-link agglomerative clustering: repeatedly merges the two groups whose mean pairwise
 * similarity is highest, until no pair reaches `threshold`. Group sums are updated in place on merge,
 * so each round is a scan of the group pairs only.
 * @example
 * averageLinkage(3, (i, j) => (i + j === 1 ? 0.9 : 0), 0.5); // [[0, 1], [2]]
 */
export function averageLinkage(n: number, sim: (i: number, j: number) => number, threshold: number): number[][] {
  const sums: Float64Array[] = Array.from({ length: n }, (_, i) => {
    const row = new Float64Array(n);
    for (let j = 0; j < n; j++) if (j !== i) row[j] = sim(i, j);
    return row;
  });
  const members: (number[] | null)[] = Array.from({ length: n }, (_, i) => [i]);
  for (;;) {
    let best = threshold;
    let pa = -1;
    let pb = -1;
    for (let a = 0; a < n; a++) {
      const ma = members[a];
      if (!ma) continue;
      for (let b = a + 1; b < n; b++) {
        const mb = members[b];
        if (!mb) continue;
        const mean = sums[a][b] / (ma.length * mb.length);
        if (mean >= best) [best, pa, pb] = [mean, a, b];
      }
    }
    if (pa < 0) break;
    for (let c = 0; c < n; c++) {
      sums[pa][c] += sums[pb][c];
      sums[c][pa] = sums[pa][c];
    }
    members[pa] = [...members[pa]!, ...members[pb]!].sort((x, y) => x - y);
    members[pb] = null;
  }
  return members.filter((m): m is number[] => m !== null);
}
