/**
 * Words of English and German as people write them: a query word that is one is meant as typed, so search
 * never "corrects" it into another word of the collection ("cake" into "bake", "landing" into "and").
 *
 * English is the lexicon of wink-eng-lite-web-model (already a dependency, for the explore tagger): about
 * 85,000 words with their inflected forms, read from the package once, on the first look-up (~0.1 s).
 * German is the 8,500 most common words people say (src/tools/german-words.ts, from FrequencyWords, CC BY-SA
 * 4.0) with its stop words and fillers. Both sit behind {@link WordList}, so a list can be swapped in without
 * touching the search.
 */
import winkModel from 'wink-eng-lite-web-model';
import { NON_CONTENT } from './stopwords.js';
import { germanWords } from './german-words.js';
import type { Lang } from '../messages/index.js';

/** A list of words of one language, asked by the lower-cased word. */
export interface WordList {
  has(word: string): boolean;
}

/** The word lists of the languages a query may be written in. */
export type CommonWords = Record<Lang, WordList>;

/** The part of wink's core model read here: its lexicon's words. */
interface WinkCore {
  features: { lexeme: { list: string[] } };
}

const LETTERS = /^\p{L}+$/u;

/** A list read the first time it is asked: most searches never need one. */
function lazyList(read: () => Iterable<string>): WordList {
  let words: Set<string> | null = null;
  return {
    has(word: string): boolean {
      words ??= new Set(read());
      return words.has(word);
    },
  };
}

/** wink's English lexicon, letters-only words lower-cased (it also holds punctuation, numbers and abbreviations). */
function englishLexicon(): string[] {
  // The package types its core model as unknown: it is JSON with the lexicon's words under features.lexeme.
  const core = (winkModel as unknown as { core: () => WinkCore }).core();
  return core.features.lexeme.list.filter((w) => LETTERS.test(w)).map((w) => w.toLowerCase());
}

/**
 * The word lists search consults before correcting a word.
 * @example
 * COMMON_WORDS.en.has('landing'); // true
 * COMMON_WORDS.en.has('bugdet'); // false
 */
export const COMMON_WORDS: CommonWords = {
  en: lazyList(() => [...englishLexicon(), ...NON_CONTENT.en]),
  de: lazyList(() => [...germanWords(), ...NON_CONTENT.de]),
};

/**
 * Reads both lists now, so the first misspelt query after a start does not pay for them: the English one
 * takes ~90 ms to read from wink's model (measured 2026-11-30), which was most of the slowest search of a
 * search thread's first seconds.
 * @example
 * readCommonWords(); // at a search thread's start, before it says it is ready
 */
export function readCommonWords(lists: CommonWords = COMMON_WORDS): void {
  lists.en.has('');
  lists.de.has('');
}

/**
 * Whether a lower-cased word is a word of either language: a query does not say which it is written in.
 * @example
 * isCommonWord('cake'); // true
 * isCommonWord('sandpapper'); // false
 */
export function isCommonWord(word: string, lists: CommonWords = COMMON_WORDS): boolean {
  return lists.en.has(word) || lists.de.has(word);
}
