import { distance as levenshtein } from 'fastest-levenshtein';
import { BKTree } from 'mnemonist';
import { describe, expect, it } from 'vitest';
import { swapProbes } from '../../src/services/search/typos.js';
import { osaDistance, swapAt } from '../../src/tools/edit-distance.js';

/** Every string of up to `n` letters over a small alphabet: enough to meet every kind of edit. */
function strings(alphabet: string, n: number): string[] {
  let level = [''];
  const out: string[] = [];
  for (let k = 0; k < n; k++) {
    level = level.flatMap((s) => [...alphabet].map((c) => s + c));
    out.push(...level);
  }
  return out;
}

describe('osaDistance', () => {
  it('counts a swap of neighbouring letters as one edit', () => {
    expect(osaDistance('bugdet', 'budget')).toBe(1);
    expect(osaDistance('soalr', 'solar')).toBe(1);
    expect(levenshtein('bugdet', 'budget')).toBe(2);
    expect(osaDistance('sandpapper', 'sandpaper')).toBe(1);
    expect(osaDistance('kitten', 'sitting')).toBe(3);
    expect(osaDistance('', 'abc')).toBe(3);
    expect(osaDistance('same', 'same')).toBe(0);
    expect(osaDistance('München', 'Münhcen')).toBe(1);
    // The swapped pair is not edited again (unrestricted Damerau–Levenshtein would say 2).
    expect(osaDistance('ca', 'abc')).toBe(3);
    expect(swapAt('bugdet', 2)).toBe('budget');
  });

  it('is symmetric, at most Levenshtein, and 0 only for equal strings', () => {
    const sample = strings('abc', 4).filter((_, i) => i % 3 === 0);
    for (const a of sample) {
      for (const b of sample) {
        const ab = osaDistance(a, b);
        expect(ab).toBe(osaDistance(b, a));
        expect(ab).toBeLessThanOrEqual(levenshtein(a, b));
        expect(ab >= levenshtein(a, b) / 2).toBe(true);
        expect(ab === 0).toBe(a === b);
      }
    }
  });
});

describe('swapProbes over Levenshtein BK-trees', () => {
  it('find exactly the words within the allowed optimal string alignment distance', () => {
    const vocabulary = strings('abcd', 6);
    const trees = new Map<number, BKTree<string>>();
    for (let len = 1; len <= 6; len++) trees.set(len, BKTree.from(vocabulary.filter((w) => w.length === len), levenshtein));
    const queries = vocabulary.filter((w) => w.length >= 3).filter((_, i) => i % 37 === 0);
    for (const q of queries) {
      for (const edits of [1, 2]) {
        const found = new Set<string>();
        for (const [probe, reach] of swapProbes(q, edits)) {
          for (let len = probe.length - reach; len <= probe.length + reach; len++) {
            for (const { item } of trees.get(len)?.search(reach, probe) ?? []) if (osaDistance(q, item) <= edits) found.add(item);
          }
        }
        const expected = vocabulary.filter((w) => osaDistance(q, w) <= edits);
        expect([...found].sort(), `${q} within ${edits}`).toEqual(expected.sort());
      }
    }
  });
});
