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
 * The words of a text with ä ö ü ß, transliterated (each once), for the word-level FTS table to hold besides
 * the text itself.
 * @example
 * transliterations('Apfelkuchen in München'); // ['Muenchen']
 */
export function transliterations(text: string): string[] {
  if (!UMLAUT.test(text)) return [];
  return [...new Set(words(text).filter((w) => UMLAUT.test(w)).map(transliterate))];
}

/**
 * Text for the trigram table: distinct lower-cased words of 3+ characters without stopwords, umlaut words
 * also transliterated. Trigrams only answer "does a word contain this", so repeats and order add nothing.
 * @example
 * distinctWords('Der Apfelkuchen und der Käse, der Käse!'); // 'apfelkuchen käse kaese'
 */
export function distinctWords(text: string): string {
  const out = new Set<string>();
  for (const w of words(text)) {
    const lower = w.toLowerCase();
    if (lower.length < 3 || isStopword(lower)) continue;
    out.add(lower);
    if (UMLAUT.test(lower)) out.add(transliterate(lower));
  }
  return [...out].join(' ');
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
