/**
 * The final order of a search's candidates: by the line each moment says the query best in (moments.ts),
 * in tiers, and the corrections as the answer shows them.
 */
import type { Correction } from './answer.js';
import type { Fused } from './fusion.js';
import { compareMatches, type LineMatch, type MatchTerm } from './moments.js';
import { FINAL_ORDER, LINE_MATCH } from './ranking-knobs.js';
import { fold } from '../../tools/fold.js';
import { words } from '../../tools/normalise.js';
import type { BestLine, SearchResult } from './results.js';
import { stemWord } from './stems.js';
import type { TypoFix } from './typos.js';

/**
 * Lists that say nothing about a moment's own words: they do not lift a moment the title alone found
 * (`recorded`: an item's first moment, listed because it was recorded when and where the query says).
 */
const TEXT_LISTS = new Set(['words', 'title', 'trigram', 'recorded']);

/** A fused candidate with its item and the line it says the query best in (null: none). */
export interface LinedCandidate extends Fused {
  item: number;
  best: BestLine;
  /** The query words the item's title holds (bit i for term i). */
  titleWords: number;
}

const NO_LINE: LineMatch = { matched: 0, score: 0, mask: 0 };

/**
 * Whether a candidate was found only through its item's title, summary or metadata: no line of it says a
 * query word, and no vector, person or picture found it.
 * @example
 * foundByItemOnly({ ...candidate, best: null, via: ['title'] }); // true
 */
export function foundByItemOnly(c: Pick<LinedCandidate, 'best' | 'via'>): boolean {
  return !(c.best && c.best.match.matched > 0) && c.via.every((v) => TEXT_LISTS.has(v));
}

/**
 * The final order, in three tiers:
 * 1. moments with a line that holds every query word, or the words its item's title does not hold ("Gipfel"
 *    in a video titled "Wanderung"): the line with more of the words first, then the better line (as
 *    written, as a phrase, close together), then the fused rank (bm25, vectors, people). No vector
 *    neighbour and no title that names every moment of an item pushes these down;
 * 2. moments with a line holding some of the words, and moments found by vectors, people or pictures,
 *    by the fused score: a line with one word of several is no better evidence than a near vector;
 * 3. moments found only through their item's title, metadata or summary, at most
 *    FINAL_ORDER.itemOnlyPerItem per item, by the fused score.
 * Each score is a share (FINAL_ORDER.lineShare) of how well the line says the query (every word as
 * written, as a phrase: 1) and the rest of the fused score, never above the score of the result before it.
 * @example
 * rankByLines(candidates, matchTerms(q), q.phrases.length); // best first, with scores
 */
export function rankByLines(candidates: LinedCandidate[], terms: MatchTerm[], phrases: number): LinedCandidate[] {
  if (terms.length === 0) return candidates;
  // Every word as written, standing as a phrase, and every quoted phrase found.
  const perfect = terms.length * LINE_MATCH.asWritten + LINE_MATCH.phrase + LINE_MATCH.quotedPhrase * phrases;
  const quality = (line: LineMatch) => Math.min(1, line.score / perfect);
  const tiers: { c: LinedCandidate; line: LineMatch; order: number }[][] = [[], [], []];
  candidates.forEach((c, order) => {
    const line = c.best?.match ?? NO_LINE;
    const full = (1 << terms.length) - 1;
    const tier = line.matched > 0 && (line.mask | c.titleWords) === full ? 0 : foundByItemOnly(c) ? 2 : 1;
    tiers[tier].push({ c, line, order });
  });
  tiers[0].sort((a, b) => compareMatches(a.line, b.line) || b.c.score - a.c.score || a.order - b.order);
  tiers[1].sort((a, b) => b.c.score - a.c.score || a.order - b.order);
  const itemOnly = new Map<number, number>();
  tiers[2] = tiers[2].filter(({ c }) => {
    const n = itemOnly.get(c.item) ?? 0;
    itemOnly.set(c.item, n + 1);
    return n < FINAL_ORDER.itemOnlyPerItem;
  });
  let ceiling = 1;
  return tiers.flat().map(({ c, line }) => {
    ceiling = Math.min(ceiling, FINAL_ORDER.lineShare * quality(line) + (1 - FINAL_ORDER.lineShare) * c.score);
    return { ...c, score: ceiling };
  });
}

/**
 * The corrections as shown: each typed word with the collection's word it was replaced by, as the results write it.
 * @example
 * correctedWords([{ from: 'sandpapper', stems: ['sandpap'] }], results); // [{ from: 'sandpapper', to: 'sandpaper' }]
 */
export function correctedWords(corrections: TypoFix[], results: SearchResult[]): Correction[] {
  return corrections.map((c) => {
    const stems = new Set(c.stems);
    for (const r of results) {
      for (const w of words(r.content)) {
        if (stems.has(fold(stemWord(w, 'en'))) || stems.has(fold(stemWord(w, 'de')))) return { from: c.from, to: w.toLowerCase() };
      }
    }
    return { from: c.from, to: c.stems[0] };
  });
}
