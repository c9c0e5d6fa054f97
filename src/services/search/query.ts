/**
 * Turns what a user typed into FTS5 expressions that cannot break FTS5 syntax: every term becomes a
 * double-quoted string made of letters and digits only, so operators (AND OR NOT NEAR), `*`, `^`, `:`,
 * `-`, `+`, parentheses and column filters are plain words or gone. Balanced double quotes keep a phrase.
 */
import { fold, words } from './normalise.js';
import { isStopword } from './stopwords.js';

/** More terms than this add cost, not precision. */
const MAX_TERMS = 16;

/** A parsed query: its terms (single words) and phrases, and the FTS5 expressions built from them. */
export interface ParsedQuery {
  /** Lower-cased words to match, stopwords removed. */
  terms: string[];
  /** Multi-word phrases from "double quotes", each a list of lower-cased words. */
  phrases: string[][];
  /** Word-level table: every term and phrase must occur. Null when nothing is searchable. */
  all: string | null;
  /** Word-level table: any term or phrase; null when it would equal `all`. */
  any: string | null;
  /** Trigram table: every word of 3+ characters must occur inside some indexed word. */
  allTrigram: string | null;
  /** Trigram table: any such word; null when it would equal `allTrigram`. */
  anyTrigram: string | null;
}

const quote = (s: string) => `"${s.replace(/"/g, '""')}"`;

/**
 * Parses a search query.
 * @example
 * parseQuery('"penalty shot" OR (captain* NEAR/2 -x) col:foo');
 * // terms ['captain', 'near', '2', 'x', 'col', 'foo'], phrases [['penalty', 'shot']],
 * // all '"penalty shot" AND "captain" AND "near" AND …'
 */
export function parseQuery(input: string): ParsedQuery {
  const phrases: string[][] = [];
  // Balanced "…" become phrases; what is left (including a lone quote) is split into words.
  const rest = input.replace(/"([^"]*)"/g, (_, inner: string) => {
    const ws = words(inner).map((w) => w.toLowerCase());
    if (ws.length > 1) phrases.push(ws);
    else if (ws.length === 1) return ` ${ws[0]} `;
    return ' ';
  });
  // Stopwords (and the operator words AND OR NOT) are dropped: a query of only those finds nothing by words,
  // which also keeps "the" from ranking every episode of a large collection. A quoted phrase keeps them.
  const terms = [...new Set(words(rest).map((w) => w.toLowerCase()))].filter((w) => !isStopword(w) && w !== 'not').slice(0, MAX_TERMS);
  const units = [...phrases.map((p) => quote(p.join(' '))), ...terms.map(quote)].slice(0, MAX_TERMS);

  const trigramWords = [...new Set([...terms, ...phrases.flat()].map(fold))].filter((w) => w.length >= 3 && !isStopword(w)).slice(0, MAX_TERMS);
  const tri = trigramWords.map(quote);
  return {
    terms,
    phrases,
    all: units.length > 0 ? units.join(' AND ') : null,
    any: units.length > 1 ? units.join(' OR ') : null,
    allTrigram: tri.length > 0 ? tri.join(' AND ') : null,
    anyTrigram: tri.length > 1 ? tri.join(' OR ') : null,
  };
}
