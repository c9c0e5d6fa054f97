import { distance as levenshtein } from 'fastest-levenshtein';
import { describe, expect, it } from 'vitest';
import { damerauDistance } from '../../src/tools/edit-distance.js';

/** Every string of up to `n` letters over a small alphabet: enough to meet every kind of edit. */
function strings(alphabet: string, n: number): string[] {
  let level = [''];
  const out = [''];
  for (let k = 0; k < n; k++) {
    level = level.flatMap((s) => [...alphabet].map((c) => s + c));
    out.push(...level);
  }
  return out;
}

describe('damerauDistance', () => {
  it('counts a swap of neighbouring letters as one edit', () => {
    expect(damerauDistance('bugdet', 'budget')).toBe(1);
    expect(damerauDistance('soalr', 'solar')).toBe(1);
    expect(levenshtein('bugdet', 'budget')).toBe(2);
    expect(damerauDistance('sandpapper', 'sandpaper')).toBe(1);
    expect(damerauDistance('kitten', 'sitting')).toBe(3);
    expect(damerauDistance('', 'abc')).toBe(3);
    expect(damerauDistance('same', 'same')).toBe(0);
    // Unrestricted: a swapped pair may be edited again (OSA would say 3).
    expect(damerauDistance('ca', 'abc')).toBe(2);
    expect(damerauDistance('München', 'Münhcen')).toBe(1);
  });

  it('is a metric at most Levenshtein, so a BK-tree over it finds every word within reach', () => {
    const all = strings('abc', 4);
    const sample = all.filter((_, i) => i % 3 === 0);
    for (const a of sample) {
      for (const b of sample) {
        const ab = damerauDistance(a, b);
        expect(ab).toBe(damerauDistance(b, a));
        expect(ab).toBeLessThanOrEqual(levenshtein(a, b));
        expect(ab === 0).toBe(a === b);
      }
    }
    for (const a of sample.slice(0, 40)) {
      for (const b of sample) {
        for (const c of sample.slice(0, 40)) expect(damerauDistance(a, c)).toBeLessThanOrEqual(damerauDistance(a, b) + damerauDistance(b, c));
      }
    }
  });
});
