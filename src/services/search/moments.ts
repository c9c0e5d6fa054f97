/**
 * Finding the moment inside a matched episode: which transcript segment or visual entry matches the
 * query best, and a snippet of it. Runs in JS over the few episodes of one result page.
 */
import { fold, stem, transliterate, words } from './normalise.js';
import type { ParsedQuery } from './query.js';

/** A query word prepared for comparison. */
export interface MatchTerm {
  folded: string;
  stem: string;
}

/** Something with a time and text to match: a transcript segment, a visual entry, a screen-text entry. */
export interface TimedCandidate {
  start: number;
  text: string;
}

/**
 * The query's words (and phrase words) prepared for matching.
 * @example
 * matchTerms(parseQuery('Penalty shots')); // [{folded: 'penalty', stem: 'penalty'}, {folded: 'shots', stem: 'shot'}]
 */
export function matchTerms(q: ParsedQuery): MatchTerm[] {
  const all = [...new Set([...q.terms, ...q.phrases.flat()].map(fold))];
  return all.map((t) => ({ folded: t, stem: stem(t) }));
}

/** A word of a text as compared: folded (and stemmed), and its transliterated form when it has umlauts. */
interface WordForms {
  folded: string;
  stem: string;
  translit: { folded: string; stem: string } | null;
}

/**
 * Word forms by word as written. Every search shapes its page by re-reading ~10 episodes' segments word by
 * word; folding (Unicode normalisation) and stemming them again each time was about a quarter of a small
 * collection's search CPU (bench:search profile). Transcript vocabularies are small; the cap bounds memory.
 */
const FORMS = new Map<string, WordForms>();
const FORMS_CAP = 50_000;

function formsOf(word: string): WordForms {
  let f = FORMS.get(word);
  if (f) return f;
  const folded = fold(word);
  const t = transliterate(word);
  const tf = t !== word ? fold(t) : null;
  f = { folded, stem: stem(folded), translit: tf === null ? null : { folded: tf, stem: stem(tf) } };
  if (FORMS.size >= FORMS_CAP) FORMS.clear();
  FORMS.set(word, f);
  return f;
}

/** The words of a text, with transliterations of umlaut words ("Muenchen" finds "München"). */
function textWords(text: string): { folded: string; stem: string }[] {
  const out: { folded: string; stem: string }[] = [];
  for (const w of words(text)) {
    const f = formsOf(w);
    out.push(f);
    if (f.translit) out.push(f.translit);
  }
  return out;
}

/** How well one word matches one term: 1 exact, 0.9 same stem or prefix, 0.6 inside a longer word. */
function wordScore(word: { folded: string; stem: string }, term: MatchTerm): number {
  if (word.folded === term.folded) return 1;
  if (term.stem.length >= 3 && (word.stem === term.stem || word.folded.startsWith(term.stem))) return 0.9;
  if (term.folded.length >= 3 && word.folded.includes(term.folded)) return 0.6;
  return 0;
}

/**
 * How well a text matches the terms: the sum over terms of their best word score, plus a bonus when
 * the words of a phrase occur in order. 0 means no term matched.
 * @example
 * scoreText('The captain takes the penalty shot', matchTerms(parseQuery('penalty'))); // 1
 */
export function scoreText(text: string, terms: MatchTerm[], phrases: string[][] = []): number {
  if (terms.length === 0) return 0;
  const ws = textWords(text);
  let score = 0;
  for (const term of terms) {
    let best = 0;
    for (const w of ws) {
      const s = wordScore(w, term);
      if (s > best) best = s;
      if (best === 1) break;
    }
    score += best;
  }
  if (score > 0 && phrases.length > 0) {
    const joined = ` ${ws.map((w) => w.folded).join(' ')} `;
    for (const p of phrases) if (joined.includes(` ${p.map(fold).join(' ')} `)) score += 0.5;
  }
  return score;
}

/**
 * The candidate that matches best (the earliest among equals), or null when none matches at all.
 * @example
 * bestMoment([{ start: 0, text: 'hello' }, { start: 12.5, text: 'penalty shot' }], terms); // { start: 12.5, … }
 */
export function bestMoment<T extends TimedCandidate>(candidates: T[], terms: MatchTerm[], phrases: string[][] = []): { candidate: T; score: number } | null {
  let best: { candidate: T; score: number } | null = null;
  for (const c of candidates) {
    const score = scoreText(c.text, terms, phrases);
    if (score > 0 && (!best || score > best.score || (score === best.score && c.start < best.candidate.start))) best = { candidate: c, score };
  }
  return best;
}

/**
 * A short piece of text around the first matching word, with "…" where it was cut.
 * @example
 * snippet('a very long transcript … penalty shot … and more', terms, 40);
 */
export function snippet(text: string, terms: MatchTerm[], max = 240): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean.length <= max) return clean;
  let at = -1;
  for (const m of clean.matchAll(/[\p{L}\p{N}]+/gu)) {
    const w = formsOf(m[0]);
    if (terms.some((t) => wordScore(w, t) > 0)) {
      at = m.index ?? 0;
      break;
    }
  }
  const start = at < 0 ? 0 : Math.max(0, at - Math.floor(max / 3));
  let piece = clean.slice(start, start + max);
  // Cut at word boundaries so no half words show.
  if (start > 0) piece = piece.replace(/^\S*\s/, '');
  if (start + max < clean.length) piece = piece.replace(/\s\S*$/, '');
  return `${start > 0 ? '…' : ''}${piece}${start + max < clean.length ? '…' : ''}`;
}
