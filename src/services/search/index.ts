/** The search index: writing analysed items, hybrid search, and reading analyses back. */
export { SearchIndex, type IndexedItem, type SliceOptions, type StoredItem } from './indexer.js';
export { SearchService, type Searcher, type SearchRequest } from './search.js';
export { SearchThreads } from './threads/pool.js';
export { modelQueryEmbedder, type QueryEmbedder, type QueryVector, type VectorSpace } from './embedder.js';
export type { SearchResult } from './results.js';
export { warmDateWords } from './date-words.js';
