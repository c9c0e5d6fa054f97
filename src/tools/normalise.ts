/**
 * Text normalisation shared by indexing, query parsing and moment finding.
 *
 * German umlauts: FTS5's `remove_diacritics` turns "München" into "munchen", but Germans also write
 * "Muenchen" (and "Strasse" for "Straße", which no tokenizer folds). Words with ä ö ü ß are therefore
 * indexed twice: as written and transliterated (ae oe ue ss). Queries need no change: "München" and
 * "Munchen" meet the written form, "Muenchen" the transliterated one.
 */
import { isStopword } from './stopwords.js';

const WORD = /[\p{L}\p{N}]+/gu;
/** A word with its hyphenated parts ("Wi-Fi", "E-Mail-Adresse"): hyphen-minus, hyphen or non-breaking hyphen, never a dash. */
export const COMPOUND = /[\p{L}\p{N}]+(?:[-\u2010\u2011][\p{L}\p{N}]+)*/gu;
const HYPHEN = /[-\u2010\u2011]/;
const HYPHENS = /[-\u2010\u2011]/g;
const LETTER = /\p{L}/u;
const UMLAUT = /[äöüßÄÖÜẞ]/;
const TRANSLIT: Record<string, string> = { ä: 'ae', ö: 'oe', ü: 'ue', ß: 'ss', Ä: 'Ae', Ö: 'Oe', Ü: 'Ue', ẞ: 'SS' };

/**
 * A word with ä ö ü ß written the transliterated way.
 * @example
 * transliterate('Straße'); // 'Strasse'
 */
export function transliterate(word: string): string {
  return word.replace(/[äöüßÄÖÜẞ]/g, (c) => TRANSLIT[c] ?? c);
}

/**
 * The words of a text as written (letters and digits).
 * @example
 * words('Penalty! The captain, 2024'); // ['Penalty', 'The', 'captain', '2024']
 */
export function words(text: string): string[] {
  return text.match(WORD) ?? [];
}

/**
 * The words of a text as written, a hyphenated word as one ("Wi-Fi"): a query takes it as one unit, a line
 * is matched against its parts and its joined form alike.
 * @example
 * compoundWords('The Wi-Fi password, 2024'); // ['The', 'Wi-Fi', 'password', '2024']
 */
export function compoundWords(text: string): string[] {
  return text.match(COMPOUND) ?? [];
}

/**
 * The parts of a hyphenated word, or the word alone.
 * @example
 * hyphenParts('Wi-Fi'); // ['Wi', 'Fi']
 */
export function hyphenParts(word: string): string[] {
  return HYPHEN.test(word) ? word.split(HYPHEN).filter(Boolean) : [word];
}

/**
 * A hyphenated word written as one ("Wi-Fi" → "WiFi"), or null for a word without a hyphen or without a
 * letter (a date such as 2024-07-14 stays as it is).
 * @example
 * joinedWord('E-Mail'); // 'EMail'
 */
export function joinedWord(word: string): string | null {
  return HYPHEN.test(word) && LETTER.test(word) ? word.replace(HYPHENS, '') : null;
}

/**
 * The hyphenated words of a text written as one, each once: the words table indexes them besides their
 * parts, so "wifi" finds "Wi-Fi" and "e-mail" finds "email" (the parts alone cannot: "wi" and "fi").
 * @example
 * hyphenJoins('The Wi-Fi and the e-mail'); // ['WiFi', 'email']
 */
export function hyphenJoins(text: string): string[] {
  if (!HYPHEN.test(text)) return [];
  const out = new Set<string>();
  for (const w of compoundWords(text)) {
    const joined = joinedWord(w);
    if (joined) out.add(joined);
  }
  return [...out];
}

/**
 * The words of a text with ä ö ü ß, transliterated (each once), for the word-level FTS table to hold besides
 * the text itself.
 * @example
 * transliterations('Apfelkuchen in München'); // ['Muenchen']
 */
export function transliterations(text: string): string[] {
  const out = new Set<string>();
  addTransliterations(text, out);
  return [...out];
}

/**
 * Adds a text's umlaut words, transliterated, to `out` (in the order they first come): what
 * {@link transliterations} gives, for a text read piece by piece.
 * @example
 * const out = new Set<string>();
 * addTransliterations('in München', out); // out: {'Muenchen'}
 */
export function addTransliterations(text: string, out: Set<string>): void {
  if (!UMLAUT.test(text)) return;
  for (const w of words(text)) if (UMLAUT.test(w)) out.add(transliterate(w));
}

/**
 * A long text in pieces of about `size` characters, each cut at whitespace so no word is split: a text's
 * words are the words of its pieces, in order. A stretch of `size` characters without whitespace stays
 * whole.
 * @example
 * [...textPieces('one two three', 4)]; // ['one ', 'two ', 'three']
 */
export function* textPieces(text: string, size = 32_768): Generator<string> {
  let from = 0;
  while (text.length - from > size) {
    const space = text.slice(from + size).search(/\s/);
    if (space < 0) break;
    const cut = from + size + space + 1;
    yield text.slice(from, cut);
    from = cut;
  }
  if (from < text.length) yield text.slice(from);
}

/**
 * Text for the trigram table: distinct lower-cased words of 3+ characters without stopwords, umlaut words
 * also transliterated, hyphenated words also written as one. Trigrams only answer "does a word contain
 * this", so repeats and order add nothing.
 * @example
 * distinctWords('Der Apfelkuchen und der Käse, der Käse! Wi-Fi'); // 'apfelkuchen käse kaese wifi'
 */
export function distinctWords(text: string): string {
  const out = new Set<string>();
  addDistinctWords(text, out);
  return [...out].join(' ');
}

/**
 * {@link distinctWords} in steps, a piece of a long text at a time.
 * @example
 * const words = runAll(distinctWordsSteps(transcript));
 */
export function* distinctWordsSteps(text: string): Generator<void, string> {
  const out = new Set<string>();
  for (const piece of textPieces(text)) {
    addDistinctWords(piece, out);
    yield;
  }
  return [...out].join(' ');
}

/**
 * Adds a text's distinct words (as {@link distinctWords} picks them) to `out`, for a text read piece by piece.
 * @example
 * const out = new Set<string>();
 * addDistinctWords('Der Käse', out); // out: {'käse', 'kaese'}
 */
export function addDistinctWords(text: string, out: Set<string>): void {
  for (const w of [...words(text), ...hyphenJoins(text)]) {
    const lower = w.toLowerCase();
    if (lower.length < 3 || isStopword(lower)) continue;
    out.add(lower);
    if (UMLAUT.test(lower)) out.add(transliterate(lower));
  }
}

/**
 * The searchable text of free-form metadata: string, number and boolean values, depth first (keys are
 * left out: they name fields, they do not describe the video).
 * @example
 * metadataText({ place: 'Bodensee', people: ['Anna', 'Ben'], n: 3 }); // 'Bodensee Anna Ben 3'
 */
export function metadataText(value: unknown): string {
  const out: string[] = [];
  const walk = (v: unknown, depth: number) => {
    if (depth > 8 || v === null || v === undefined) return;
    if (typeof v === 'string') out.push(v);
    else if (typeof v === 'number' || typeof v === 'boolean') out.push(String(v));
    else if (Array.isArray(v)) for (const x of v) walk(x, depth + 1);
    else if (typeof v === 'object') for (const x of Object.values(v as Record<string, unknown>)) walk(x, depth + 1);
  };
  walk(value, 0);
  return out.join(' ');
}
