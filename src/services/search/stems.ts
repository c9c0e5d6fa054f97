/**
 * Word stems per language (Snowball: Porter2 for English, the German Snowball stemmer), so "baking" meets
 * "bakes" and "Wanderungen" meets "Wanderung". The words table holds each word as its item's language stems
 * it; a query word becomes every stem it could have been indexed as, since a query does not say its language.
 */
import { stemmer as englishStem } from '@orama/stemmers/english';
import { stemmer as germanStem } from '@orama/stemmers/german';
import { LRUMap } from 'mnemonist';
import { addTransliterations, hyphenJoins, textPieces, words } from '../../tools/normalise.js';
import { runAll } from '../../tools/time-slices.js';
import type { Lang } from '../../messages/index.js';


const STEMMERS: Record<Lang, (w: string) => string> = { en: englishStem, de: germanStem };

/** Stems by word, per language: transcripts repeat their words, and a re-index meets them all again. */
const CACHE_CAP = 100_000;
const CACHE: Record<Lang, LRUMap<string, string>> = { en: new LRUMap(CACHE_CAP), de: new LRUMap(CACHE_CAP) };

/**
 * The language an item's text is stemmed in: German for `de`, English for everything else (an unknown
 * language is most often English, and English stemming only cuts common suffixes).
 * @example
 * textLanguage('de'); // 'de'
 * textLanguage(null); // 'en'
 */
export function textLanguage(language: string | null | undefined): Lang {
  return language === 'de' ? 'de' : 'en';
}

/**
 * One word's stem in a language, lower-cased; digits and short words stay as they are.
 * @example
 * stemWord('Wanderungen', 'de'); // 'wander'
 * stemWord('baking', 'en'); // 'bake'
 */
export function stemWord(word: string, language: Lang): string {
  const lower = word.toLowerCase();
  if (lower.length < 3 || /^\p{N}+$/u.test(lower)) return lower;
  const cache = CACHE[language];
  let s = cache.get(lower);
  if (s === undefined) {
    s = STEMMERS[language](lower) || lower;
    cache.set(lower, s);
  }
  return s;
}

/**
 * A text as the words table indexes it: every word replaced by its stem, in order (phrases keep their
 * positions), separated by spaces.
 * @example
 * stemText('Es beginnt zu regnen.', 'de'); // 'es beginnt zu regn'
 */
export function stemText(text: string, language: Lang): string {
  return words(text)
    .map((w) => stemWord(w, language))
    .join(' ');
}

/**
 * German verb endings Snowball leaves on (it stems nouns and adjectives): "regnet" stays "regnet" while
 * "regnen" becomes "regn". A query word is also tried without them, so "regnet", "gehst" and "geht" meet
 * "regnen" and "gehen". Only for query words, where a wider net costs nothing in the index.
 */
const GERMAN_VERB_ENDINGS = ['est', 'et', 'st', 't'];

/**
 * Every stem a query word may have been indexed as: its English and German stems, and the German stems of
 * the word without a verb ending. The first is the English stem.
 * @example
 * queryStems('regnet'); // ['regnet', 'regn']
 * queryStems('baking'); // ['bake', 'baking']
 */
export function queryStems(word: string): string[] {
  const lower = word.toLowerCase();
  const out = new Set([stemWord(lower, 'en'), stemWord(lower, 'de')]);
  for (const ending of GERMAN_VERB_ENDINGS) {
    if (lower.endsWith(ending) && lower.length - ending.length >= 3) out.add(stemWord(`${lower.slice(0, -ending.length)}en`, 'de'));
  }
  return [...out];
}

/**
 * Text for the word-level FTS table: its words stemmed in the item's language, then each hyphenated word
 * written as one ("wifi" finds "Wi-Fi") and the transliterated form of each word with an umlaut
 * ("Muenchen" finds "München"), stemmed too. The extra words follow the text, so they never split a phrase.
 * @example
 * indexText('Wanderungen in München', 'de'); // 'wander in munch muench'
 * indexText('The Wi-Fi password', 'en'); // 'the wi fi password wifi'
 */
export function indexText(text: string, language: Lang): string {
  return runAll(indexTextSteps(text, language));
}

/**
 * {@link indexText} in steps of a few thousand words (a long text is stemmed piece by piece, each piece
 * cut at whitespace, so the result is the same).
 * @example
 * const stemmed = await runInSlices(indexTextSteps(transcript, 'de'), slices);
 */
export function* indexTextSteps(text: string, language: Lang): Generator<void, string> {
  const extra = new Set<string>();
  const stem = function* (all: string, collect: boolean): Generator<void, string> {
    const out: string[] = [];
    for (const piece of textPieces(all)) {
      const s = stemText(piece, language);
      if (s) out.push(s);
      if (collect) {
        const joined = hyphenJoins(piece);
        for (const j of joined) extra.add(j);
        addTransliterations(piece, extra);
        if (joined.length) addTransliterations(joined.join(' '), extra);
      }
      yield;
    }
    return out.join(' ');
  };
  const stemmed = yield* stem(text, true);
  return extra.size === 0 ? stemmed : `${stemmed} ${yield* stem([...extra].join(' '), false)}`;
}
