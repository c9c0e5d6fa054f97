import { describe, expect, it } from 'vitest';
import { checkJudgedSet, editDistance } from '../../scripts/relevance/check.js';
import { CORPUS, subtitled } from '../../scripts/relevance/corpus.js';
import { dcg, gradesOf, judgedMomentOf, ndcgAt, scoreQuery, summarize } from '../../scripts/relevance/metrics.js';
import { moment, QUERIES } from '../../scripts/relevance/queries.js';
import type { JudgedMoment, JudgedQuery } from '../../scripts/relevance/types.js';

const line = (media_id: string, start: number, grade: 1 | 2): JudgedMoment => ({ media_id, start, end: start + 4, grade, text: `${media_id}@${start}` });
const at = (media_id: string, start_time: number) => ({ media_id, start_time });

describe('relevance metrics', () => {
  const meant = line('cake', 5.5, 2);
  const fine = line('cake', 35.5, 1);

  it('a result is a judged moment when it starts inside the line, or at most 0.5 s before it', () => {
    expect(judgedMomentOf(at('cake', 5.5), [meant])).toBe(meant);
    expect(judgedMomentOf(at('cake', 5.0), [meant])).toBe(meant);
    expect(judgedMomentOf(at('cake', 9.5), [meant])).toBe(meant);
    expect(judgedMomentOf(at('cake', 4.9), [meant])).toBeUndefined();
    expect(judgedMomentOf(at('cake', 9.6), [meant])).toBeUndefined();
    expect(judgedMomentOf(at('bread', 6), [meant])).toBeUndefined();
  });

  it('credits a judged moment once, at its first result', () => {
    expect(gradesOf([at('cake', 6), at('cake', 7), at('cake', 36)], [meant, fine])).toEqual([2, 0, 1]);
  });

  it('discounts gain 2^g − 1 by log2 of rank + 1, over the first k', () => {
    expect(dcg([2])).toBe(3);
    expect(dcg([0, 2])).toBeCloseTo(3 / Math.log2(3), 12);
    expect(dcg([2, 0, 1])).toBeCloseTo(3.5, 12);
    expect(dcg([0, 0, 2], 2)).toBe(0);
  });

  it('nDCG@10 is 1 for the ideal order, less for another, 0 for nothing judged found, null with nothing judged', () => {
    expect(ndcgAt([at('cake', 6), at('cake', 36)], [meant, fine])).toBe(1);
    const swapped = ndcgAt([at('cake', 36), at('cake', 6)], [meant, fine]);
    expect(swapped).toBeCloseTo((1 + 3 / Math.log2(3)) / (3 + 1 / Math.log2(3)), 12);
    expect(ndcgAt([at('bread', 1)], [meant])).toBe(0);
    expect(ndcgAt([at('bread', 1)], [])).toBeNull();
    // A judged moment beyond rank 10 adds nothing.
    const eleven = [...Array.from({ length: 10 }, (_, i) => at('other', i)), at('cake', 6)];
    expect(ndcgAt(eleven, [meant])).toBe(0);
  });

  it('a hit is a judged-2 moment first; a grade-1 moment first is a miss', () => {
    const q: JudgedQuery = { query: 'apple cake', kind: 'titles', language: 'en', moments: [meant, fine] };
    expect(scoreQuery(q, [at('cake', 6), at('cake', 36)])).toMatchObject({ hit: true, rank: 1, ndcg10: 1 });
    expect(scoreQuery(q, [at('cake', 36), at('cake', 6)])).toMatchObject({ hit: false, rank: 2 });
    expect(scoreQuery(q, [])).toMatchObject({ hit: false, rank: null, ndcg10: 0, first: null });
  });

  it('a no-answer query is right with an empty answer only, and has no nDCG', () => {
    const q: JudgedQuery = { query: 'submarine', kind: 'no-answer', language: 'en', moments: [] };
    expect(scoreQuery(q, [])).toMatchObject({ hit: true, ndcg10: null });
    expect(scoreQuery(q, [at('cake', 6)])).toMatchObject({ hit: false, ndcg10: null });
  });

  it('summarizes: nDCG over answerable queries, first hits over all, no-answer share, misses and kinds', () => {
    const judged: JudgedQuery = { query: 'apple cake', kind: 'titles', language: 'en', moments: [meant, fine] };
    const none: JudgedQuery = { query: 'submarine', kind: 'no-answer', language: 'en', moments: [] };
    const s = summarize([scoreQuery(judged, [at('cake', 6)]), scoreQuery(judged, [at('cake', 36), at('cake', 6)]), scoreQuery(none, []), scoreQuery(none, [at('cake', 6)])]);
    const swapped = (1 + 3 / Math.log2(3)) / (3 + 1 / Math.log2(3));
    const partial = 3 / (3 + 1 / Math.log2(3));
    expect(s.queries).toBe(4);
    expect(s.ndcg10).toBeCloseTo((partial + swapped) / 2, 3);
    expect(s.first_hit).toBe(0.5);
    expect(s.no_answer_ok).toBe(0.5);
    expect(s.misses).toEqual([
      { query: 'apple cake', kind: 'titles', rank: 2, first: 'cake@36' },
      { query: 'submarine', kind: 'no-answer', rank: null, first: 'cake@6' },
    ]);
    expect(s.by_kind['no-answer']).toEqual({ queries: 2, ndcg10: null, first_hit: 0.5 });
    expect(s.by_kind.titles.first_hit).toBe(0.5);
  });
});

describe('the judged set', () => {
  it('is fit to run: 32+ queries in English and German, no-answer queries far from every word of the collection', () => {
    expect(checkJudgedSet(CORPUS, QUERIES)).toEqual([]);
    expect(editDistance('sandpapper', 'sandpaper')).toBe(1);
    expect(editDistance('gemsen', 'gämsen')).toBe(1);
  });

  it('finds a no-answer query that a collection word is within typo reach of', () => {
    const corpus = [subtitled('boat', 'Boat trip', 'en', ['We saw a submarine.'])];
    expect(checkJudgedSet(corpus, [{ query: 'submarines', kind: 'no-answer', language: 'en', moments: [] }])).toContainEqual(expect.stringContaining('"submarines" is close to "submarine"'));
  });

  it('names a judged moment by a snippet of exactly one line', () => {
    expect(moment('apple-cake', 'famous apple cake', 2)).toMatchObject({ media_id: 'apple-cake', start: 5.5, end: 9.5 });
    expect(() => moment('apple-cake', 'apple', 2)).toThrow(/not one/);
  });
});
