import type { Db } from '../db.js';

/**
 * The search index: episodes and their timed segments, two contentless FTS5 tables over episode text
 * (word-level with English stemming, and trigrams for compounds and partial words), the analysis
 * facts of an item, float vectors, and the registry of the lazily created sqlite-vec tables.
 *
 * FTS5 and vec0 tables have no foreign keys: their rows are removed by the search index's delete hooks,
 * which run inside the item and collection delete transactions.
 */
export function m002Search(db: Db): void {
  db.exec(`
    CREATE TABLE item_analysis (
      item_pk INTEGER PRIMARY KEY REFERENCES items(pk) ON DELETE CASCADE,
      summary TEXT NOT NULL,
      duration REAL NOT NULL,
      language TEXT NOT NULL,
      transcript_source TEXT NOT NULL,
      stored_file TEXT,
      warnings TEXT NOT NULL,
      indexed_at TEXT NOT NULL
    );

    CREATE TABLE episodes (
      pk INTEGER PRIMARY KEY,
      item_pk INTEGER NOT NULL REFERENCES items(pk) ON DELETE CASCADE,
      collection_pk INTEGER NOT NULL,
      idx INTEGER NOT NULL,
      start REAL NOT NULL,
      end REAL NOT NULL,
      summary TEXT NOT NULL,
      thumbnail TEXT,
      thumbnail_time REAL,
      screen_text TEXT NOT NULL,
      tags TEXT NOT NULL,
      UNIQUE (item_pk, idx)
    );
    CREATE INDEX episodes_collection ON episodes(collection_pk);

    -- kind: 'audio' (transcript segment), 'visual' (visual entry: text = summary, ocr/tags JSON arrays),
    -- 'screen' (merged on-screen text entry, used to find the moment of a match only).
    CREATE TABLE segments (
      pk INTEGER PRIMARY KEY,
      episode_pk INTEGER NOT NULL REFERENCES episodes(pk) ON DELETE CASCADE,
      kind TEXT NOT NULL CHECK (kind IN ('audio', 'visual', 'screen')),
      seq INTEGER NOT NULL,
      start REAL NOT NULL,
      end REAL NOT NULL,
      text TEXT NOT NULL,
      ocr TEXT,
      tags TEXT
    );
    CREATE INDEX segments_episode ON segments(episode_pk, kind, seq);

    -- rowid = episodes.pk. Column order is the bm25() weight order.
    CREATE VIRTUAL TABLE episode_fts USING fts5(
      title, transcript, screen_text, tags, summary, metadata,
      content = '', contentless_delete = 1,
      tokenize = 'porter unicode61 remove_diacritics 2'
    );
    -- Same columns, each holding the distinct words of the column (trigrams only answer "contains").
    CREATE VIRTUAL TABLE episode_trigram USING fts5(
      title, transcript, screen_text, tags, summary, metadata,
      content = '', contentless_delete = 1,
      tokenize = 'trigram remove_diacritics 1'
    );

    -- One vector space per (kind, model); spaces of one kind and size share a vec0 table.
    CREATE TABLE vector_spaces (
      id INTEGER PRIMARY KEY,
      kind TEXT NOT NULL CHECK (kind IN ('passage', 'frame')),
      model TEXT NOT NULL,
      dims INTEGER NOT NULL CHECK (dims > 0 AND dims % 8 = 0),
      table_name TEXT NOT NULL,
      created_at TEXT NOT NULL,
      UNIQUE (kind, model)
    );

    -- Full-precision vectors for re-scoring; vec0 rowid = vectors.pk.
    CREATE TABLE vectors (
      pk INTEGER PRIMARY KEY,
      episode_pk INTEGER NOT NULL REFERENCES episodes(pk) ON DELETE CASCADE,
      collection_pk INTEGER NOT NULL,
      space_id INTEGER NOT NULL REFERENCES vector_spaces(id),
      time REAL NOT NULL,
      embedding BLOB NOT NULL
    );
    CREATE INDEX vectors_episode ON vectors(episode_pk);
    CREATE INDEX vectors_collection ON vectors(collection_pk, space_id);
  `);
}
