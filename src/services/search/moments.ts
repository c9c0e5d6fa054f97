/**
 * How well one line (a transcript segment, a visual entry, an on-screen text entry) says the query: which
 * of its words it holds, how close together, in the query's order. The search ranks moments by their best
 * line first and picks the moment's time from it. Runs in JS over the few dozen candidate episodes.
 */
import { LRUMap } from 'mnemonist';
import { fold } from '../../tools/fold.js';
import { COMPOUND, compoundWords, hyphenJoins, hyphenParts, joinedWord, transliterate } from '../../tools/normalise.js';
import type { ParsedQuery } from './query.js';
import { LINE_MATCH } from './ranking-knobs.js';
import { stemWord } from './stems.js';

/** A query word prepared for comparison. */
export interface MatchTerm {
  folded: string;
  /** Every stem the word may appear as (English, German, corrected). */
  stems: Set<string>;
  /** The first three letters of the word and of each stem: a matching line holds one of them. */
  keys: string[];
}

/** A term with the keys lines are screened by. */
function term(folded: string, stems: string[]): MatchTerm {
  return { folded, stems: new Set(stems), keys: [...new Set([folded, ...stems].map((f) => f.slice(0, 3)))] };
}

/** Something with a time and text to match: a transcript segment, a visual entry, a screen-text entry. */
export interface TimedCandidate {
  start: number;
  text: string;
}

/** How a line matches: how many query words it holds, and a score that also rewards order and closeness. */
export interface LineMatch {
  /** Query words found in the line (as written, stemmed, or inside a longer word). */
  matched: number;
  /** Sum of each word's match quality (as written, same stem, word part), plus phrase and closeness bonuses (LINE_MATCH). */
  score: number;
  /** Which query words were found: bit i for term i. */
  mask: number;
}

/**
 * The query's words (and phrase words) prepared for matching.
 * @example
 * matchTerms(parseQuery('Penalty shots')); // [{folded: 'penalty', stems: {'penalti', 'penalty'}}, {folded: 'shots', …}]
 */
export function matchTerms(q: ParsedQuery): MatchTerm[] {
  const out = new Map<string, MatchTerm>();
  for (const t of q.terms) out.set(fold(t.word), term(fold(t.word), t.stems.map(fold)));
  for (const w of q.phrases.flat()) {
    const folded = fold(w);
    if (!out.has(folded)) out.set(folded, term(folded, [fold(stemWord(w, 'en')), fold(stemWord(w, 'de'))]));
  }
  return [...out.values()];
}

/** A word of a text as compared: folded, and its stems in both languages. */
interface WordForms {
  folded: string;
  en: string;
  de: string;
}

/**
 * Word forms by word as written. Every search re-reads a few dozen episodes' lines word by word; folding
 * (Unicode normalisation) and stemming them again each time was about a quarter of a small collection's
 * search CPU (bench:search profile). Transcript vocabularies are small; the cap bounds memory.
 */
const FORMS_CAP = 50_000;
const FORMS = new LRUMap<string, WordForms[]>(FORMS_CAP);

function forms(word: string): WordForms {
  const folded = fold(word);
  return { folded, en: fold(stemWord(word, 'en')), de: fold(stemWord(word, 'de')) };
}

/** A word as written and, when it has umlauts, transliterated ("Muenchen" finds "München"). */
function formsOf(word: string): WordForms[] {
  let f = FORMS.get(word);
  if (f) return f;
  const t = transliterate(word);
  f = t !== word ? [forms(word), forms(t)] : [forms(word)];
  FORMS.set(word, f);
  return f;
}

/** The word forms of a line, word by word, by the line's text: a line is compared again at every search that finds its episode. */
const LINE_CAP = 20_000;
const LINE_FORMS = new LRUMap<string, WordForms[][]>(LINE_CAP);

/**
 * The word positions of one written word: a hyphenated word takes one position per part, each part matching
 * as itself and as the whole written as one, so "Wi-Fi password" says `wifi password` as a phrase and
 * `wi fi` too.
 */
function compoundForms(word: string): WordForms[][] {
  const joined = joinedWord(word);
  if (!joined) return hyphenParts(word).map(formsOf);
  const whole = formsOf(joined);
  return hyphenParts(word).map((part) => [...formsOf(part), ...whole]);
}

function lineForms(text: string): WordForms[][] {
  let f = LINE_FORMS.get(text);
  if (f) return f;
  f = compoundWords(text).flatMap(compoundForms);
  LINE_FORMS.set(text, f);
  return f;
}

/** Lines folded (and transliterated where they have umlauts), by their text: the screen every line passes first. */
const FOLDED = new LRUMap<string, string>(FORMS_CAP);

function foldedLine(text: string): string {
  let f = FOLDED.get(text);
  if (f !== undefined) return f;
  const joined = hyphenJoins(text);
  const all = joined.length ? `${text} ${joined.join(' ')}` : text;
  const t = transliterate(all);
  f = t === all ? fold(all) : `${fold(all)} ${fold(t)}`;
  FOLDED.set(text, f);
  return f;
}

/**
 * Whether a line may hold a query word at all: a word that matches a term as written, by a stem that
 * begins it, as a stem prefix or as a word part holds one of the term's keys. (Only a word whose stem does
 * not begin it, Porter2's "dying" for "die", escapes the screen.) Most lines of a page's candidates hold
 * none, and this spares them the word-by-word comparison, which was most of a search's CPU.
 */
function mayMatch(text: string, terms: MatchTerm[]): boolean {
  const folded = foldedLine(text);
  return terms.some((t) => t.keys.some((k) => folded.includes(k)));
}

/** How well one word matches one term: as written, the same stem or a stem prefix, inside a longer word, or not (0). */
function wordScore(word: WordForms, term: MatchTerm): number {
  if (word.folded === term.folded) return LINE_MATCH.asWritten;
  if (term.stems.has(word.en) || term.stems.has(word.de)) return LINE_MATCH.sameStem;
  for (const s of term.stems) if (s.length >= LINE_MATCH.minStemPrefix && word.folded.startsWith(s)) return LINE_MATCH.sameStem;
  if (term.folded.length >= LINE_MATCH.minWordPart && word.folded.includes(term.folded)) return LINE_MATCH.wordPart;
  return 0;
}

/** The terms of one search prepared for many words: which terms a form names exactly or by stem. */
interface TermIndex {
  exact: Map<string, number[]>;
  stem: Map<string, number[]>;
  /** Terms that can also match as a stem prefix or word part (a stem or the word long enough, see wordScore). */
  loose: number[];
}

const INDEXES = new WeakMap<MatchTerm[], TermIndex>();

function termIndex(terms: MatchTerm[]): TermIndex {
  let ix = INDEXES.get(terms);
  if (ix) return ix;
  const add = (m: Map<string, number[]>, k: string, i: number) => m.set(k, [...(m.get(k) ?? []), i]);
  ix = { exact: new Map(), stem: new Map(), loose: [] };
  for (const [i, t] of terms.entries()) {
    add(ix.exact, t.folded, i);
    for (const st of t.stems) add(ix.stem, st, i);
    if (t.folded.length >= LINE_MATCH.minWordPart || [...t.stems].some((st) => st.length >= LINE_MATCH.minStemPrefix)) ix.loose.push(i);
  }
  INDEXES.set(terms, ix);
  return ix;
}

/** The empty list of a form no term names (one shared array, not one made per word). */
const NONE: readonly number[] = [];

/** Best score of each term at each word position of a line's words. Plain loops: this runs for every word of every candidate line. */
function positions(forms: WordForms[][], terms: MatchTerm[]): { best: number[]; at: number[][] } {
  const best = terms.map(() => 0);
  const at: number[][] = terms.map(() => []);
  const ix = termIndex(terms);
  const scores = terms.map(() => 0);
  for (let pos = 0; pos < forms.length; pos++) {
    scores.fill(0);
    for (const f of forms[pos]) {
      for (const i of ix.exact.get(f.folded) ?? NONE) scores[i] = LINE_MATCH.asWritten;
      for (const i of ix.stem.get(f.en) ?? NONE) scores[i] = Math.max(scores[i], LINE_MATCH.sameStem);
      for (const i of ix.stem.get(f.de) ?? NONE) scores[i] = Math.max(scores[i], LINE_MATCH.sameStem);
      for (const i of ix.loose) {
        // A stem prefix or word part holds one of the term's keys: most words hold none.
        if (scores[i] >= LINE_MATCH.sameStem || !terms[i].keys.some((k) => f.folded.includes(k))) continue;
        scores[i] = Math.max(scores[i], wordScore(f, terms[i]));
      }
    }
    for (let i = 0; i < terms.length; i++) {
      const sc = scores[i];
      if (sc === 0) continue;
      if (sc > best[i]) {
        best[i] = sc;
        at[i] = [pos];
      } else if (sc === best[i]) at[i].push(pos);
    }
  }
  return { best, at };
}

/**
 * The narrowest window of word positions holding one position of each list, and whether some window of
 * that width has them in list order. Lists are short (a word's places in one line).
 */
function narrowest(lists: number[][]): { width: number; inOrder: boolean } {
  let width = Infinity;
  let inOrder = false;
  const pick = (i: number, chosen: number[]) => {
    if (i === lists.length) {
      const w = Math.max(...chosen) - Math.min(...chosen) + 1;
      const ordered = chosen.every((p, j) => j === 0 || p === chosen[j - 1] + 1);
      if (w < width || (w === width && ordered)) {
        inOrder = w < width ? ordered : inOrder || ordered;
        width = w;
      }
      return;
    }
    for (const p of lists[i].slice(0, LINE_MATCH.closenessPlaces)) pick(i + 1, [...chosen, p]);
  };
  pick(0, []);
  return { width, inOrder };
}

/**
 * How well a line says the query: the words it holds (each at its best quality), then the phrase bonus
 * when all the query's words stand in order next to each other, else up to the closeness bonus the closer
 * the matched words stand; a quoted phrase found as written adds its own bonus (LINE_MATCH).
 * @example
 * scoreLine('Today we bake the famous apple cake', matchTerms(parseQuery('apple cake'))); // { matched: 2, score: 2.5, mask: 0b11 }
 */
export function scoreLine(text: string, terms: MatchTerm[], phrases: string[][] = []): LineMatch {
  if (terms.length === 0 || !mayMatch(text, terms)) return NO_MATCH;
  return scoreWords(lineForms(text), terms, phrases);
}

const NO_MATCH: LineMatch = Object.freeze({ matched: 0, score: 0, mask: 0 });

/** scoreLine on words already split and prepared: a line's, or two lines' one after the other. */
function scoreWords(forms: WordForms[][], terms: MatchTerm[], phrases: string[][]): LineMatch {
  const { best, at } = positions(forms, terms);
  const hit = best.map((b, i) => (b > 0 ? i : -1)).filter((i) => i >= 0);
  let score = best.reduce((a, b) => a + b, 0);
  if (hit.length >= 2) {
    const { width, inOrder } = narrowest(hit.map((i) => at[i]));
    if (hit.length === terms.length && width === hit.length && inOrder) score += LINE_MATCH.phrase;
    else score += (LINE_MATCH.near * (hit.length - 1)) / (width - 1);
  }
  if (hit.length > 0 && phrases.length > 0) {
    const joined = ` ${forms.map((f) => f[0].folded).join(' ')} `;
    for (const p of phrases) if (joined.includes(` ${p.map(fold).join(' ')} `)) score += LINE_MATCH.quotedPhrase;
  }
  return { matched: hit.length, score, mask: hit.reduce((m, i) => m | (1 << i), 0) };
}

/**
 * Orders line matches: more query words first, then the higher score.
 * @example
 * compareMatches({ matched: 2, score: 2, mask: 3 }, { matched: 1, score: 1.4, mask: 1 }) < 0; // true
 */
export function compareMatches(a: LineMatch, b: LineMatch): number {
  return b.matched - a.matched || b.score - a.score;
}

/**
 * The candidate line that says the query best (the earliest among equals), or null when none matches.
 * Two consecutive transcript lines count together only when together they hold more of the query's words
 * than either alone (a sentence split over two subtitles); the moment then starts with the first.
 * @example
 * bestMoment([{ start: 0, text: 'hello' }, { start: 12.5, text: 'penalty shot' }], terms); // { candidate: { start: 12.5, … }, … }
 */
export function bestMoment<T extends TimedCandidate>(candidates: T[], terms: MatchTerm[], phrases: string[][] = [], consecutive: T[] = []): { candidate: T; match: LineMatch } | null {
  let best: { candidate: T; match: LineMatch } | null = null;
  const consider = (candidate: T, match: LineMatch) => {
    if (match.matched === 0) return;
    const order = best ? compareMatches(match, best.match) : -1;
    if (!best || order < 0 || (order === 0 && candidate.start < best.candidate.start)) best = { candidate, match };
  };
  const single = candidates.map((c) => scoreLine(c.text, terms, phrases));
  candidates.forEach((c, i) => {
    consider(c, single[i]);
  });
  const byLine = new Map(candidates.map((c, i) => [c, single[i]]));
  for (let i = 0; i + 1 < consecutive.length; i++) {
    const a = consecutive[i];
    const b = consecutive[i + 1];
    const ma = byLine.get(a)?.mask ?? 0;
    const mb = byLine.get(b)?.mask ?? 0;
    // Scored together only when each holds a word the other lacks: then together they hold more.
    if ((ma | mb) === ma || (ma | mb) === mb) continue;
    // Their words one after the other, from the lines' own cached forms: a joined text would be a new
    // string each search, a miss in every cache.
    const pair = scoreWords([...lineForms(a.text), ...lineForms(b.text)], terms, phrases);
    consider(a, { ...pair, score: pair.score - LINE_MATCH.splitLines });
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
  for (const m of clean.matchAll(COMPOUND)) {
    if (compoundForms(m[0]).flat().some((w) => terms.some((t) => wordScore(w, t) > 0))) {
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
