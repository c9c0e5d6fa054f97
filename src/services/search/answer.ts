/**
 * The shape of a search answer: the moments found, what could not be looked for, and which query words were
 * read as other words.
 */
import type { SearchNotice } from './notices.js';
import type { SearchResult } from './results.js';

/** A query word that matched nothing in the collection, and the collection's word searched instead. */
export interface Correction {
  from: string;
  to: string;
}

/**
 * What SearchService.search answers.
 * @example
 * const answer: SearchAnswer = { results: [], notices: [], corrected: [{ from: 'sandpapper', to: 'sandpaper' }] };
 */
export interface SearchAnswer {
  results: SearchResult[];
  notices: SearchNotice[];
  corrected: Correction[];
}
