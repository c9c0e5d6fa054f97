import { distance } from 'fastest-levenshtein';
import { fold } from './fold.js';

/** Words at least this long may be one OCR slip apart and still be the same word (shorter ones are other words: "cat", "car"). */
export const SLIP_LENGTH = 5;

/**
 * Whether `word` (lower-cased) may be `other` read with one OCR slip: the same letters without or with other
 * diacritics (OCR models trained on English drop umlauts: "konigssee" for "königssee"), or, in a word of
 * SLIP_LENGTH letters or more, one letter added, dropped or changed ("reviev" for "review"). The same word
 * is no slip.
 * @example
 * mayBeSlipOf('konigssee', 'königssee'); // true
 * mayBeSlipOf('reviev', 'review'); // true
 * mayBeSlipOf('car', 'cat'); // false
 */
export function mayBeSlipOf(word: string, other: string): boolean {
  if (word === other || Math.abs(word.length - other.length) > 1) return false;
  if (word.length >= SLIP_LENGTH && distance(word, other) <= 1) return true;
  return fold(word) === fold(other);
}
