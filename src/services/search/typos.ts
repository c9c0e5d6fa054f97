/**
 * Typo tolerance: a query word that matches nothing in the collection (not as a word, not inside a longer
 * word) and is no word of English or German is looked up as its nearest words in the collection's own
 * vocabulary instead: one edit away for words of 4–7 letters, two for longer ones (a swap of two
 * neighbouring letters is one edit), the most frequent first, never a stop word. A word the collection
 * holds is never corrected. The vocabulary is the words table's (stems, see stems.ts), read once per
 * collection and read again, in the background, once the collection's text has changed and REFRESH_MS
 * have passed. Whether a correction is kept is the search's to judge (search.ts: it must find more).
 */
import { distance } from 'fastest-levenshtein';
import { BKTree, LRUMap } from 'mnemonist';
import type { TextIndexRepository } from '../../store/text-index.js';
import { COMMON_WORDS, isCommonWord, type CommonWords } from '../../tools/common-words.js';
import { osaDistance, swapAt } from '../../tools/edit-distance.js';
import { fold } from '../../tools/fold.js';
import { NON_CONTENT } from '../../tools/stopwords.js';
import { quote, withCorrections, type ParsedQuery } from './query.js';
import { TYPOS } from './ranking-knobs.js';

/** One corrected query word: as typed, and the stems it is looked up as instead. */
export interface TypoFix {
  from: string;
  stems: string[];
}

/** Collections whose vocabulary stays cached; the least recently used goes first. */
const CACHED_COLLECTIONS = 8;
/**
 * Vocabulary terms read per turn of the event loop. fts5vocab counts each term's episodes by walking its
 * doclist, so a collection of a million episodes takes seconds to read: in slices, between which requests
 * are answered. A collection whose vocabulary fits one slice is read at once.
 */
const SLICE = 20_000;
/** A changed collection's vocabulary is read again after this long: words indexed since may not be offered meanwhile. */
const REFRESH_MS = 10 * 60_000;

/**
 * How many edits a word of this length may be away from its correction (0: never corrected; TYPOS says how many).
 * @example
 * allowedEdits('sandpapper'); // 2
 * allowedEdits('cat'); // 0
 */
export function allowedEdits(word: string): number {
  if (word.length < TYPOS.minLetters || /\p{N}/u.test(word)) return 0;
  return word.length >= TYPOS.twoEditsFrom ? 2 : 1;
}

/** A vocabulary term with the number of episodes holding it. */
interface Term {
  term: string;
  docs: number;
}

interface Vocabulary {
  generation: number;
  readAt: number;
  /** Terms by length, each list most frequent first. */
  byLength: Map<number, Term[]>;
  /**
   * A BK-tree of each length's terms, made when a correction first needs that length: a look-up one edit away
   * then compares a few hundred terms instead of every term of three lengths (1.4 → 0.15 ms at 100,000
   * episodes; two edits 1.3–2.5× faster), with the same terms found.
   */
  trees: Map<number, BKTree<Term>>;
}

const termDistance = (a: Term, b: Term) => distance(a.term, b.term);

/**
 * What to look a stem up as, each with the Levenshtein edits it may be away, so that a swap of two
 * neighbouring letters counts as one edit: the stem itself with all its edits, the stem with one
 * neighbouring pair swapped with one edit less, and (when two are allowed) with two pairs swapped, exactly.
 * The BK-trees stay on Levenshtein, a metric and fast (fastest-levenshtein): a tree over a distance with
 * swaps cost 2–4 times as much to search (a prototype, docs/performance.md), and the restricted one is no
 * metric, which a BK-tree needs. Together these find every word within the optimal string alignment
 * distance (no letter edited again after a swap).
 * @example
 * swapProbes('soalr', 1); // Map { 'soalr' => 1, 'osalr' => 0, 'saolr' => 0, 'solar' => 0, 'soarl' => 0 }
 */
export function swapProbes(stem: string, edits: number): Map<string, number> {
  const out = new Map([[stem, edits]]);
  const add = (probe: string, reach: number) => {
    if ((out.get(probe) ?? -1) < reach) out.set(probe, reach);
  };
  for (let i = 0; i + 1 < stem.length; i++) {
    if (stem[i] === stem[i + 1]) continue;
    const swapped = swapAt(stem, i);
    add(swapped, edits - 1);
    if (edits < 2) continue;
    // A second swap of a pair apart from the first: one swap never touches a letter twice.
    for (let j = i + 2; j + 1 < stem.length; j++) if (swapped[j] !== swapped[j + 1]) add(swapAt(swapped, j), 0);
  }
  return out;
}

/** Words without meaning of their own ("and", "über"): a query word is never read as one. */
const meaningless = (term: string) => NON_CONTENT.en.has(term) || NON_CONTENT.de.has(term);

/**
 * Corrects misspelt query words against a collection's vocabulary.
 * @example
 * const typos = new TypoCorrector(store.text);
 * const { query, corrections } = typos.correct(parseQuery('sandpapper'), collectionPk);
 * // corrections [{ from: 'sandpapper', stems: ['sandpap'] }]
 */
export class TypoCorrector {
  private readonly cache = new LRUMap<number, Vocabulary>(CACHED_COLLECTIONS);
  private readonly reading = new Set<number>();

  constructor(
    private readonly text: TextIndexRepository,
    /** Words meant as typed: a query word among them is never corrected. */
    private readonly words: CommonWords = COMMON_WORDS,
  ) {}

  /** The corrections a query's misspelt words may have, and the query with all of them (the caller keeps those that help). */
  correct(q: ParsedQuery, collectionPk: number): { query: ParsedQuery; corrections: TypoFix[] } {
    const corrections: TypoFix[] = [];
    for (const t of q.terms) {
      if (allowedEdits(t.word) === 0 || isCommonWord(t.word, this.words) || this.known(collectionPk, t.word, t.stems)) continue;
      const near = this.nearest(collectionPk, t.stems);
      if (near.length > 0) corrections.push({ from: t.word, stems: near });
    }
    if (corrections.length === 0) return { query: q, corrections };
    return { query: withCorrections(q, new Map(corrections.map((c) => [c.from, c.stems]))), corrections };
  }

  /** The word is in the collection: as one of its stems, or inside a longer word (a compound part). */
  private known(collectionPk: number, word: string, stems: string[]): boolean {
    if (this.text.hasAnyTerm(collectionPk, stems.map(fold))) return true;
    return this.text.matchParts(quote(fold(word)), collectionPk, 1, null).length > 0;
  }

  /**
   * The most frequent vocabulary terms at the smallest distance from any of the stems, each stem allowed
   * the edits its own length allows (a swap of neighbouring letters is one, see {@link swapProbes}): the
   * vocabulary holds stems, and "eruption" stems to "erupt", which two edits would turn into unrelated
   * short words.
   */
  private nearest(collectionPk: number, stems: string[]): string[] {
    const vocab = this.vocabulary(collectionPk);
    if (!vocab) return [];
    let best = Infinity;
    let found: Term[] = [];
    for (const stem of new Set(stems.map(fold))) {
      const edits = allowedEdits(stem);
      if (edits === 0) continue;
      for (const [probe, reach] of swapProbes(stem, edits)) {
        for (let len = probe.length - reach; len <= probe.length + reach; len++) {
          for (const { item: entry } of this.treeOf(vocab, len)?.search(reach, { term: probe, docs: 0 }) ?? []) {
            const d = osaDistance(stem, entry.term);
            if (d > edits || d > best || meaningless(entry.term)) continue;
            if (d < best) {
              best = d;
              found = [];
            }
            if (!found.some((f) => f.term === entry.term)) found.push(entry);
          }
        }
      }
    }
    return found
      .sort((a, b) => b.docs - a.docs)
      .slice(0, TYPOS.alternatives)
      .map((f) => f.term);
  }

  /** The BK-tree of a vocabulary's terms of one length, made the first time it is asked for. */
  private treeOf(vocab: Vocabulary, length: number): BKTree<Term> | undefined {
    let tree = vocab.trees.get(length);
    const terms = vocab.byLength.get(length);
    if (!tree && terms) {
      tree = BKTree.from(terms, termDistance);
      vocab.trees.set(length, tree);
    }
    return tree;
  }

  /**
   * The collection's vocabulary: cached, or read now when it fits one slice; else null while it is read in
   * the background (the search goes on without corrections). A stale one is served while it is read again.
   */
  private vocabulary(collectionPk: number): Vocabulary | null {
    const generation = this.text.generation(collectionPk);
    const cached = this.cache.get(collectionPk);
    if (cached) {
      if (cached.generation !== generation && Date.now() - cached.readAt > REFRESH_MS) void this.readInSlices(collectionPk, [], '');
      return cached;
    }
    if (this.reading.has(collectionPk)) return null;
    const first = this.text.vocabularyAfter(collectionPk, '', SLICE);
    if (first.length < SLICE) return this.keep(collectionPk, generation, first);
    void this.readInSlices(collectionPk, first, first[first.length - 1].term);
    return null;
  }

  /** Reads the rest of a vocabulary a slice per turn of the event loop, then keeps it. */
  private async readInSlices(collectionPk: number, read: { term: string; docs: number }[], after: string): Promise<void> {
    if (this.reading.has(collectionPk)) return;
    this.reading.add(collectionPk);
    try {
      const generation = this.text.generation(collectionPk);
      for (let last = after; ; ) {
        await new Promise((r) => setImmediate(r));
        const slice = this.text.vocabularyAfter(collectionPk, last, SLICE);
        read.push(...slice);
        if (slice.length < SLICE) break;
        last = slice[slice.length - 1].term;
      }
      this.keep(collectionPk, generation, read);
    } catch {
      // The collection went away meanwhile: nothing to keep.
    } finally {
      this.reading.delete(collectionPk);
    }
  }

  private keep(collectionPk: number, generation: number, entries: { term: string; docs: number }[]): Vocabulary {
    const byLength = new Map<number, { term: string; docs: number }[]>();
    // Digits and one-letter terms are never a correction.
    for (const entry of entries) {
      if (entry.term.length < 2 || /\p{N}/u.test(entry.term)) continue;
      const list = byLength.get(entry.term.length) ?? [];
      list.push(entry);
      byLength.set(entry.term.length, list);
    }
    for (const list of byLength.values()) list.sort((a, b) => b.docs - a.docs);
    const vocab: Vocabulary = { generation, readAt: Date.now(), byLength, trees: new Map() };
    this.cache.set(collectionPk, vocab);
    return vocab;
  }
}
