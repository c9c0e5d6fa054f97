/** A stretch of words that may form noun phrases: modifiers (adjectives, nouns used as such) before nouns. */
export type NounRun = { word: string; role: 'mod' | 'noun' }[];

/** Longest topic phrase, in words (`phrase.split(" ").length <= MAX_PHRASE_WORDS`). */
export const MAX_PHRASE_WORDS = 4;

/**
 * The noun phrases inside a run: every stretch of 1–4 words that ends on a noun and names no word twice
 * ("Morgen gibt es viel Morgen"). A run's modifiers all come before its nouns, so each stretch reads as
 * adjectives and nouns followed by a head noun.
 * @example
 * phrasesOfRun([{ word: 'fresh', role: 'mod' }, { word: 'apple', role: 'noun' }, { word: 'cake', role: 'noun' }]);
 * // [['fresh', 'apple'], ['fresh', 'apple', 'cake'], ['apple'], ['apple', 'cake'], ['cake']]
 */
export function phrasesOfRun(run: NounRun): string[][] {
  const out: string[][] = [];
  for (let i = 0; i < run.length; i++) {
    const seen = new Set<string>();
    for (let j = i; j < run.length && j - i < MAX_PHRASE_WORDS; j++) {
      const lower = run[j].word.toLowerCase();
      if (seen.has(lower)) break;
      seen.add(lower);
      if (run[j].role === 'noun') out.push(run.slice(i, j + 1).map((w) => w.word));
    }
  }
  return out;
}
