/**
 * The shape of a search answer: the moments found, what could not be looked for, and which query words were
 * read as other words.
 */
import type { WordCorrection } from '../../tools/corrected-query.js';
import type { SearchNotice } from './notices.js';
import type { SearchResult } from './results.js';
import type { Understood } from './understand.js';

/** A query word that matched nothing in the collection, and the collection's word searched instead. */
export type Correction = WordCorrection;

/**
 * What SearchService.search answers.
 * @example
 * const answer: SearchAnswer = { results: [], notices: [], corrected: [{ from: 'sandpapper', to: 'sandpaper' }],
 *   searched_query: 'sandpaper', original_query: 'sandpapper' };
 */
export interface SearchAnswer {
  results: SearchResult[];
  notices: SearchNotice[];
  corrected: Correction[];
  /** The query as searched, its corrected words replaced; null when no word was corrected. */
  searched_query: string | null;
  /** The query as given, to search again with `correct_typos: false` ("search for … instead"); null when no word was corrected. */
  original_query: string | null;
  /** A date or place read in the words and searched as a filter (understand.ts); absent when none was. */
  understood?: Understood;
}
