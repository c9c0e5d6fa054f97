import type { Db } from '../db.js';

/**
 * Issue 30, speed: each collection gets a third FTS table, `fts_own_<pk>`, holding the words of what a
 * moment says and shows (transcript, on-screen text, tags) without the item's title, summary and
 * metadata. Searches rank those first; asking the words table for them through a column filter cost
 * FTS5 a read of every match's positions. The tables are contentless, so the new one cannot be filled
 * from the others: every collection's text is marked for the rebuild from the stored items, episodes and
 * segments that runs at start (as in migration 030).
 * @example
 * m035OwnWords(db); // every text_indexes row has ready = 0
 */
export function m035OwnWords(db: Db): void {
  db.exec('UPDATE text_indexes SET ready = 0');
}
