/**
 * Turns what a user typed into FTS5 expressions that cannot break FTS5 syntax: every term becomes a
 * double-quoted string made of letters and digits only, so operators (AND OR NOT NEAR), `*`, `^`, `:`,
 * `-`, `+`, parentheses and column filters are plain words or gone. Balanced double quotes keep a phrase.
 * The words table holds stems (stems.ts), so each word is asked for as every stem it may have been
 * indexed as: `("regnet" OR "regn")`.
 */
import { fold } from '../../tools/fold.js';
import { compoundWords, hyphenParts, joinedWord, words } from '../../tools/normalise.js';
import { queryStems, stemWord } from './stems.js';
import { isStopword } from '../../tools/stopwords.js';
import { LANGS } from '../../messages/index.js';

/** More terms than this add cost, not precision. */
const MAX_TERMS = 16;

/** A query word: as typed (lower case; a hyphenated word written as one) and the stems it is looked up as. */
export interface QueryTerm {
  word: string;
  stems: string[];
}

/** A parsed query: its terms (single words) and phrases, and the FTS5 expressions built from them. */
export interface ParsedQuery {
  /** Words to match, stopwords removed. */
  terms: QueryTerm[];
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

/**
 * A string as an FTS5 string literal: whatever it holds is a word to match, never syntax.
 * @example
 * quote('penalty'); // '"penalty"'
 */
export const quote = (s: string) => `"${s.replace(/"/g, '""')}"`;

/** One term as FTS5 asks for it: its one stem, or its stems in parentheses. */
const termExpr = (t: QueryTerm) => (t.stems.length === 1 ? quote(t.stems[0]) : `(${t.stems.map(quote).join(' OR ')})`);

/** A phrase as each language would have indexed it, e.g. `("appl cake" OR "apple cake")`. */
function phraseExpr(p: string[]): string {
  const forms = [...new Set(LANGS.map((lang) => p.map((w) => stemWord(w, lang)).join(' ')))];
  return forms.length === 1 ? quote(forms[0]) : `(${forms.map(quote).join(' OR ')})`;
}

/**
 * A query word as a term. A hyphenated word is looked for written as one (the words table also holds
 * "Wi-Fi" as "wifi") and as its parts in a row, as each language stems them, so `wi-fi` finds "wifi",
 * "Wi-Fi" and "Wi Fi", even in text indexed before hyphenated words were also indexed as one.
 * @example
 * queryTerm('wi-fi'); // { word: 'wifi', stems: ['wifi', 'wi fi'] }
 */
function queryTerm(typed: string): QueryTerm {
  const joined = joinedWord(typed);
  if (!joined) return { word: typed, stems: queryStems(typed) };
  const parts = hyphenParts(typed);
  const inARow = LANGS.map((lang) => parts.map((p) => stemWord(p, lang)).join(' '));
  return { word: joined, stems: [...new Set([...queryStems(joined), ...inARow])] };
}

/** The FTS5 expressions of terms and phrases. */
function expressions(terms: QueryTerm[], phrases: string[][], trigramWords: string[]): Omit<ParsedQuery, 'terms' | 'phrases'> {
  const units = [...phrases.map(phraseExpr), ...terms.map(termExpr)].slice(0, MAX_TERMS);
  const tri = [...new Set(trigramWords)].filter((w) => w.length >= 3 && !isStopword(w)).slice(0, MAX_TERMS).map(quote);
  return {
    all: units.length > 0 ? units.join(' AND ') : null,
    any: units.length > 1 ? units.join(' OR ') : null,
    allTrigram: tri.length > 0 ? tri.join(' AND ') : null,
    anyTrigram: tri.length > 1 ? tri.join(' OR ') : null,
  };
}

/**
 * Parses a search query.
 * @example
 * parseQuery('"penalty shot" OR (captain* NEAR/2 -x) col:foo');
 * // terms captain, near, 2, x, col, foo; phrases [['penalty', 'shot']],
 * // all '("penalti shot" OR "penalty shot") AND "captain" AND "near" AND …'
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
  // A hyphenated word stays one unit ("wi-fi"); hyphenated digits (a date) are words of their own.
  const tokens = compoundWords(rest).flatMap((w) => (joinedWord(w) ? [w] : hyphenParts(w)));
  const typed = [...new Set(tokens.map((w) => w.toLowerCase()))].filter((w) => !isStopword(w) && w !== 'not').slice(0, MAX_TERMS);
  const terms = typed.map(queryTerm);
  return { terms, phrases, ...expressions(terms, phrases, [...terms.map((t) => t.word), ...phrases.flat()].map(fold)) };
}

/**
 * The query with misspelt words replaced: each corrected word is looked up as the stems found for it in
 * the collection's vocabulary (typos.ts), in the words table and, as a word part, in the trigram table.
 * @example
 * withCorrections(parseQuery('sandpapper'), new Map([['sandpapper', ['sandpap']]])).all; // '"sandpap"'
 */
export function withCorrections(q: ParsedQuery, corrections: Map<string, string[]>): ParsedQuery {
  if (corrections.size === 0) return q;
  const terms = q.terms.map((t) => (corrections.has(t.word) ? { word: t.word, stems: corrections.get(t.word)! } : t));
  const trigram = [...terms.map((t) => (corrections.has(t.word) ? t.stems[0] : fold(t.word))), ...q.phrases.flat().map(fold)];
  return { ...q, terms, ...expressions(terms, q.phrases, trigram) };
}
