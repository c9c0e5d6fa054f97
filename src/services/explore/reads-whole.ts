import { MAX_PHRASE_WORDS } from './noun-runs.js';
import { tagEnglish } from './tagger.js';
import { isEdgeWord, isVerbForm } from './wordlists.js';
import type { Lang } from '../../messages/index.js';

const WORD = /^\p{L}[\p{L}\p{M}]*(?:[-'’]\p{L}[\p{L}\p{M}]*)*$/u;
const ADJECTIVE_ENDING = /(e|en|er|es|em)$/u;
/** Tags that never stand in an English noun phrase of ours; a phrase alone carries no context, so a final "VERB" is let through ("goal kick"). */
const NOT_IN_PHRASE = new Set(['ADP', 'ADV', 'AUX', 'CCONJ', 'DET', 'INTJ', 'NUM', 'PART', 'PRON', 'PUNCT', 'SCONJ', 'SYM', 'X']);

/** Before its head an English phrase has only adjectives and nouns; the head is never an adjective. */
function englishShape(words: string[]): boolean {
  // "the" in front makes the tagger read the words as a noun phrase if they can be one.
  const tags = tagEnglish(`the ${words.join(' ').toLowerCase()}`).slice(1).map((t) => t.pos);
  if (tags.length !== words.length || tags.some((t) => NOT_IN_PHRASE.has(t))) return false;
  if (tags.slice(0, -1).some((t) => t === 'VERB')) return false;
  return tags[tags.length - 1] !== 'ADJ';
}

/**
 * A German phrase ends on a capitalised noun; before it, capitalised words or lower-case adjectives with an
 * adjective ending, never a lower-case word after a capitalised one. The first word's case says nothing
 * (a topic label is capitalised).
 */
function germanShape(words: string[]): boolean {
  const capital = words.map((w) => /^\p{Lu}/u.test(w));
  if (!capital[capital.length - 1]) return false;
  return words.every((w, i) => i === 0 || capital[i] || (ADJECTIVE_ENDING.test(w) && w.length > 3 && !capital.slice(1, i).some(Boolean)))
    && (capital[0] || (ADJECTIVE_ENDING.test(words[0]) && words[0].length > 3));
}

/**
 * Whether a phrase stands alone as a topic: 1–4 words (a single word of three letters or more), each named
 * once, none a function word, adverb, number word or common verb form, shaped as a noun phrase of `language`
 * (English: adjectives and nouns as the tagger reads them; German: adjectives, then capitalised nouns). Cut clauses fail: "Tomatoes need water every",
 * "Kuchen kommt fuer vierzig", "Keep your eyes", "Now blow".
 * @example
 * readsWhole('tomato plants', 'en'); // true
 * readsWhole('Tomatoes need water every', 'en'); // false
 * readsWhole('frische Äpfel', 'de'); // true
 * readsWhole('Kuchen kommt fuer vierzig', 'de'); // false
 */
export function readsWhole(phrase: string, language: Lang): boolean {
  const words = phrase.split(' ');
  if (words.length > MAX_PHRASE_WORDS || !words.every((w) => WORD.test(w))) return false;
  // One word of one or two letters is a scrap ("Ni"), not a subject.
  if (words.length === 1 && words[0].length < 3) return false;
  if (new Set(words.map((w) => w.toLowerCase())).size < words.length) return false;
  if (words.some((w) => isEdgeWord(w, language) || isVerbForm(w, language))) return false;
  return language === 'de' ? germanShape(words) : englishShape(words);
}
