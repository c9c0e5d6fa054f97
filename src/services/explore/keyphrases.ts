import { nounPhrases } from './noun-phrases.js';
import { readsWhole } from './reads-whole.js';
import type { Lang } from '../../messages/index.js';

/** A phrase that stands out in a group of texts, as most often written, with the documents it occurs in. */
export interface KeyPhrase {
  /** Lower-cased key. */
  phrase: string;
  /** The most frequent spelling in the texts ("Penalty shot training"). */
  surface: string;
  /** The language of the sentences it was found in, which its shape was checked against. */
  language: Lang;
  score: number;
  docs: number[];
}

/** One noun phrase occurrence in a document. */
interface Occurrence {
  key: string;
  surface: string;
  language: Lang;
}

/**
 * The noun phrases of a set of documents, found once (tagging is the costly part) and shared by every
 * group drawn from the documents.
 */
export interface PhraseCorpus {
  docs: Occurrence[][];
  /** In how many documents each key occurs. */
  df: Map<string, number>;
  /** readsWhole answers, by language and surface, so each is asked once. */
  whole: Map<string, boolean>;
}

/**
 * Finds the noun phrases of each document (see nounPhrases; `language` is the fallback for text whose
 * sentences show no language of their own). Phrases holding a word of `leaveOut` (lower-cased: OCR slips,
 * see ocrSlips) are no candidates.
 * @example
 * const corpus = phraseCorpus(['Penalty shot training.', 'The penalty shot.'], 'en');
 */
export function phraseCorpus(docs: string[], language: Lang, leaveOut: ReadonlySet<string> = new Set()): PhraseCorpus {
  const occurrences = docs.map((text) =>
    nounPhrases(text, language)
      .map((c) => ({ key: c.words.join(' ').toLowerCase(), surface: c.words.join(' '), language: c.language }))
      .filter((o) => leaveOut.size === 0 || !o.key.split(' ').some((w) => leaveOut.has(w))),
  );
  const df = new Map<string, number>();
  for (const c of occurrences) for (const key of new Set(c.map((x) => x.key))) df.set(key, (df.get(key) ?? 0) + 1);
  return { docs: occurrences, df, whole: new Map() };
}

/**
 * Whether a phrase of the corpus reads whole (asked once per surface and language).
 * @example
 * readsWholeIn(corpus, 'Penalty shot', 'en'); // true
 */
export function readsWholeIn(corpus: PhraseCorpus, surface: string, language: Lang): boolean {
  const key = `${language} ${surface}`;
  const known = corpus.whole.get(key);
  if (known !== undefined) return known;
  const ok = readsWhole(surface, language);
  corpus.whole.set(key, ok);
  return ok;
}

/**
 * Distinctive noun phrases of the `group` documents measured against the whole corpus: frequent in the group,
 * rare elsewhere (TF-IDF over phrase candidates), longer phrases and phrases of `favour` words (the items'
 * titles) favoured. Chosen phrases share no word, so they read as different ideas; phrases made only of
 * `exclude` words are skipped, and so are those `accept` (when given) refuses; each one readsWhole.
 * @example
 * keyPhrases(phraseCorpus(['Penalty shot training', 'the penalty shot'], 'en'), [0, 1], 3)[0].surface; // 'Penalty shot'
 */
export function keyPhrases(
  corpus: PhraseCorpus,
  group: number[],
  k: number,
  exclude: string[] = [],
  favour: string[] = [],
  accept: (phrase: KeyPhrase) => boolean = () => true,
): KeyPhrase[] {
  const n = corpus.docs.length;
  const inGroup = new Map<string, { tf: number; docs: Set<number>; surfaces: Map<string, { count: number; language: Lang }> }>();
  for (const i of group) {
    for (const { key, surface, language } of corpus.docs[i]) {
      const e = inGroup.get(key) ?? { tf: 0, docs: new Set<number>(), surfaces: new Map() };
      e.tf++;
      e.docs.add(i);
      const s = e.surfaces.get(surface) ?? { count: 0, language };
      s.count++;
      e.surfaces.set(surface, s);
      inGroup.set(key, e);
    }
  }
  const skip = new Set(exclude.flatMap((x) => x.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []));
  const titled = new Set(favour.flatMap((x) => x.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []));
  const scored: KeyPhrase[] = [];
  for (const [key, e] of inGroup) {
    const words = key.split(' ');
    if (words.every((w) => skip.has(w))) continue;
    const idf = Math.log(1 + n / (corpus.df.get(key) ?? 1));
    const spread = e.docs.size / group.length;
    const [surface, { language }] = [...e.surfaces.entries()].sort((a, b) => b[1].count - a[1].count)[0];
    // A title names what the item is about: the more of its words a phrase holds, and the fewer others,
    // the more it outranks a phrase said once at the end ("Apple cake" over "Cake" and "Tart recipe").
    const inTitle = words.filter((w) => titled.has(w)).length;
    const titleFit = (1 + inTitle / words.length) * (1 + inTitle);
    const score = (1 + Math.log(e.tf)) * idf * (0.5 + spread) * (1 + 0.3 * (words.length - 1)) * titleFit;
    scored.push({ phrase: key, surface, language, score, docs: [...e.docs] });
  }
  scored.sort((a, b) => b.score - a.score);
  const out: KeyPhrase[] = [];
  const used = new Set<string>();
  for (const c of scored) {
    if (out.length >= k) break;
    const words = c.phrase.split(' ');
    if (words.some((w) => used.has(w)) || !accept(c) || !readsWholeIn(corpus, c.surface, c.language)) continue;
    for (const w of words) used.add(w);
    out.push(c);
  }
  return out;
}

/**
 * Capitalises the first letter: the form of a topic label.
 * @example
 * titleCase('penalty shot'); // 'Penalty shot'
 */
export function titleCase(phrase: string): string {
  return phrase.charAt(0).toUpperCase() + phrase.slice(1);
}
