import type { Db } from '../db.js';

/**
 * Text search per collection: the two database-wide FTS5 tables (episode_fts, episode_trigram) become a
 * pair of FTS5 tables per collection (`fts_words_<pk>`, `fts_parts_<pk>`, same columns and tokenizers), so
 * a query reads only the matches of the asked collection, its bm25 statistics are the collection's own, and
 * deleting a collection drops two tables instead of deleting rows one by one. `text_indexes` registers the
 * pairs; `ready = 0` marks a pair still to be filled.
 *
 * The old tables are contentless (their text cannot be read back), so they are dropped here and every
 * collection with episodes is marked `ready = 0`: the search index rebuilds its text from the stored rows
 * (items, episodes, segments) when the server starts, one collection per transaction (see SearchIndex.rebuildText).
 * The rebuild needs the text normalisation of the search service, which the store layer does not know.
 */
export function m004CollectionText(db: Db): void {
  db.exec(`
    DROP TABLE IF EXISTS episode_fts;
    DROP TABLE IF EXISTS episode_trigram;
    CREATE TABLE text_indexes (
      collection_pk INTEGER PRIMARY KEY,
      ready INTEGER NOT NULL DEFAULT 0 CHECK (ready IN (0, 1))
    );
    INSERT INTO text_indexes (collection_pk, ready) SELECT DISTINCT collection_pk, 0 FROM episodes;
  `);
}
