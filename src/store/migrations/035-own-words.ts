import type { Db } from '../db.js';

/**
 * Issue 30, speed: each collection gets its own-words FTS tables, `fts_own_<pk>_<shard>`, holding the words
 * of what a moment says and shows (transcript, on-screen text, tags) without the item's title, summary and
 * metadata, in shards of 100,000 episodes registered in `text_own_shards` (store/own-shards.ts). Searches
 * rank those first: asking the words table for them through a column filter cost FTS5 a read of every
 * match's positions, and a shard bounds what bm25 counts per word. The tables are contentless, so they
 * cannot be filled from the others: every collection's text is marked for the rebuild from the stored
 * items, episodes and segments that runs at start (as in migration 030).
 * @example
 * m035OwnWords(db); // text_own_shards exists, every text_indexes row has ready = 0
 */
export function m035OwnWords(db: Db): void {
  db.exec(`
    CREATE TABLE text_own_shards (
      collection_pk INTEGER NOT NULL,
      shard INTEGER NOT NULL,
      first_pk INTEGER NOT NULL,
      rows INTEGER NOT NULL,
      PRIMARY KEY (collection_pk, shard)
    );
    UPDATE text_indexes SET ready = 0;
  `);
}
