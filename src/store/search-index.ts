import type { Db } from './connection.js';
import { VECTOR_SHARDS } from './migrations/004-vector-shards.js';
import { prepared } from './statements.js';

/** An item_analysis row: the media-level facts of an indexed item. */
export interface ItemAnalysisRow {
  item_pk: number;
  summary: string;
  duration: number;
  language: string;
  transcript_source: string;
  stored_file: string | null;
  /** JSON array of strings. */
  warnings: string;
  indexed_at: string;
}

/** An episodes row. */
export interface EpisodeRow {
  pk: number;
  item_pk: number;
  collection_pk: number;
  idx: number;
  start: number;
  end: number;
  summary: string;
  thumbnail: string | null;
  thumbnail_time: number | null;
  screen_text: string;
  tags: string;
}

/** A segments row; `ocr` and `tags` are JSON arrays on visual entries, null otherwise. */
export interface SegmentRow {
  pk: number;
  episode_pk: number;
  kind: 'audio' | 'visual' | 'screen';
  seq: number;
  start: number;
  end: number;
  text: string;
  ocr: string | null;
  tags: string | null;
}

/** The text of one episode as both FTS tables index it, in bm25() column order. */
export interface EpisodeText {
  title: string;
  transcript: string;
  screen_text: string;
  tags: string;
  summary: string;
  metadata: string;
}

export type VectorKind = 'passage' | 'frame';

/** A vector_spaces row: one (kind, model) and the vec0 table its vectors live in. */
export interface VectorSpaceRow {
  id: number;
  kind: VectorKind;
  model: string;
  dims: number;
  table_name: string;
  created_at: string;
}

/** A word-level hit: bm25 is negative, lower is better (FTS5's convention). */
export interface FtsHit {
  pk: number;
  bm25: number;
}

/** A stored vector read back for re-scoring. */
export interface VectorRow {
  pk: number;
  episode_pk: number;
  time: number;
  embedding: Buffer;
}

/** An episode with the fields of its item that results need. */
export interface EpisodeWithItem extends EpisodeRow {
  media_id: string;
  item_src: string | null;
  item_thumbnail: string | null;
  stored_file: string | null;
}

/**
 * Column weights of bm25(), in EpisodeText order: title, transcript, screen_text, tags, summary, metadata.
 * A title or tag hit says more about an episode than one word in a long transcript.
 */
const BM25_WEIGHTS = '3.0, 1.0, 1.5, 1.5, 1.5, 0.5';

const FTS_COLUMNS = 'title, transcript, screen_text, tags, summary, metadata';

/** FTS5 column filter of the short, telling columns, searched first. */
const SHORT_COLUMNS = '{title screen_text tags summary}';

/**
 * At most this many matches (the newest) are ranked by bm25 per pass. bm25 costs about 2 µs per matching
 * episode (it reads each match's column sizes), so a word in most of 100,000 episodes would cost 100+ ms;
 * reading the newest matches' rowids first is a walk over the doclist only. A word this common says little
 * about relevance: the best-ranked among its newest 2,000 matches stand in for the best of all.
 */
export const RANKED_MATCHES = 2000;

/** The two FTS5 tables of a collection: words (stemmed) and parts (trigrams over distinct words). */
export interface TextTables {
  words: string;
  parts: string;
}

const textTables = (collectionPk: number): TextTables => ({ words: `fts_words_${collectionPk}`, parts: `fts_parts_${collectionPk}` });

/** A stored episode with what its searchable text is rebuilt from. */
export interface StoredEpisodeText {
  pk: number;
  title: string | null;
  /** JSON array of the audio segments' texts, in order. */
  audio: string;
  screen_text: string;
  /** JSON array of strings. */
  tags: string;
  summary: string;
  additional_metadata: string | null;
}

/**
 * Episodes, segments, the FTS5 tables (a words and a parts table per collection, created with the
 * collection's first episode) and the vectors (sqlite-vec vec0 tables created lazily per kind and size,
 * partitioned by collection and vector space). Writes never open their own transaction: the
 * search index service wraps one item's rows in one.
 * @example
 * const repo = new SearchIndexRepository(db);
 * repo.matchWords('"penalty"', collectionPk, 30, null);
 */
export class SearchIndexRepository {
  constructor(private readonly db: Db) {}

  insertAnalysis(row: ItemAnalysisRow): void {
    prepared(
      this.db,
      `INSERT INTO item_analysis (item_pk, summary, duration, language, transcript_source, stored_file, warnings, indexed_at)
       VALUES (@item_pk, @summary, @duration, @language, @transcript_source, @stored_file, @warnings, @indexed_at)`,
    ).run(row);
  }

  insertEpisode(row: Omit<EpisodeRow, 'pk'>): number {
    const info = prepared(
      this.db,
      `INSERT INTO episodes (item_pk, collection_pk, idx, start, end, summary, thumbnail, thumbnail_time, screen_text, tags)
       VALUES (@item_pk, @collection_pk, @idx, @start, @end, @summary, @thumbnail, @thumbnail_time, @screen_text, @tags)`,
    ).run(row);
    return Number(info.lastInsertRowid);
  }

  insertSegment(row: Omit<SegmentRow, 'pk'>): void {
    prepared(
      this.db,
      `INSERT INTO segments (episode_pk, kind, seq, start, end, text, ocr, tags)
       VALUES (@episode_pk, @kind, @seq, @start, @end, @text, @ocr, @tags)`,
    ).run(row);
  }

  /**
   * Indexes an episode in its collection's two FTS tables (created on first use): `words` is the parts
   * table's per-column distinct-word text.
   */
  insertText(collectionPk: number, episodePk: number, text: EpisodeText, words: EpisodeText): void {
    const t = this.ensureTextTables(collectionPk);
    prepared(this.db, `INSERT INTO ${t.words} (rowid, ${FTS_COLUMNS}) VALUES (@rowid, @title, @transcript, @screen_text, @tags, @summary, @metadata)`).run({
      rowid: episodePk,
      ...text,
    });
    prepared(this.db, `INSERT INTO ${t.parts} (rowid, ${FTS_COLUMNS}) VALUES (@rowid, @title, @transcript, @screen_text, @tags, @summary, @metadata)`).run({
      rowid: episodePk,
      ...words,
    });
  }

  /** The collection's FTS tables when they are filled (ready), else null: nothing to match yet. */
  readyTextTables(collectionPk: number): TextTables | null {
    const ready = prepared(this.db, 'SELECT ready FROM text_indexes WHERE collection_pk = ?').pluck().get(collectionPk) as number | undefined;
    return ready === 1 ? textTables(collectionPk) : null;
  }

  /** The collection's FTS tables, created and registered (ready) when missing. */
  private ensureTextTables(collectionPk: number): TextTables {
    const t = textTables(collectionPk);
    const ready = prepared(this.db, 'SELECT ready FROM text_indexes WHERE collection_pk = ?').pluck().get(collectionPk) as number | undefined;
    if (ready === 1) return t;
    if (ready === 0) throw new Error(`the text index of collection ${collectionPk} is waiting for its rebuild`);
    this.createTextTables(t);
    prepared(this.db, 'INSERT INTO text_indexes (collection_pk, ready) VALUES (?, 1)').run(collectionPk);
    return t;
  }

  private createTextTables(t: TextTables): void {
    // Same columns (bm25 weight order) and tokenizers as before the split per collection (migration 002).
    this.db.exec(`
      CREATE VIRTUAL TABLE ${t.words} USING fts5(${FTS_COLUMNS}, content = '', contentless_delete = 1,
        tokenize = 'porter unicode61 remove_diacritics 2');
      CREATE VIRTUAL TABLE ${t.parts} USING fts5(${FTS_COLUMNS}, content = '', contentless_delete = 1,
        tokenize = 'trigram remove_diacritics 1');
    `);
  }

  /** Collections whose FTS tables wait for a rebuild from the stored rows (after migration 003). */
  pendingTextRebuilds(): number[] {
    return prepared(this.db, 'SELECT collection_pk FROM text_indexes WHERE ready = 0 ORDER BY collection_pk').pluck().all() as number[];
  }

  /** Drops and recreates the collection's (empty) FTS tables for a rebuild; `finishTextRebuild` marks them ready. */
  startTextRebuild(collectionPk: number): void {
    const t = textTables(collectionPk);
    this.db.exec(`DROP TABLE IF EXISTS ${t.words}; DROP TABLE IF EXISTS ${t.parts};`);
    this.createTextTables(t);
    prepared(this.db, 'INSERT INTO text_indexes (collection_pk, ready) VALUES (?, 0) ON CONFLICT (collection_pk) DO UPDATE SET ready = 0').run(collectionPk);
  }

  finishTextRebuild(collectionPk: number): void {
    const t = textTables(collectionPk);
    // One b-tree per table instead of the many segments of row-by-row inserts: faster queries from the start.
    this.db.exec(`INSERT INTO ${t.words}(${t.words}) VALUES ('optimize'); INSERT INTO ${t.parts}(${t.parts}) VALUES ('optimize');`);
    prepared(this.db, 'UPDATE text_indexes SET ready = 1 WHERE collection_pk = ?').run(collectionPk);
  }

  /** A page of a collection's stored episodes (pk order, after `afterPk`) with what their text is built from. */
  storedTexts(collectionPk: number, afterPk: number, limit: number): StoredEpisodeText[] {
    return prepared(
      this.db,
      `SELECT e.pk, i.title, e.screen_text, e.tags, e.summary, i.additional_metadata,
              coalesce((SELECT json_group_array(s.text ORDER BY s.seq) FROM segments s WHERE s.episode_pk = e.pk AND s.kind = 'audio'), '[]') AS audio
       FROM episodes e JOIN items i ON i.pk = e.item_pk WHERE e.collection_pk = ? AND e.pk > ? ORDER BY e.pk LIMIT ?`,
    ).all(collectionPk, afterPk, limit) as StoredEpisodeText[];
  }

  /** Inserts a rebuilt episode's text into the collection's tables (between start and finishTextRebuild). */
  rebuildText(collectionPk: number, episodePk: number, text: EpisodeText, words: EpisodeText): void {
    const t = textTables(collectionPk);
    prepared(this.db, `INSERT INTO ${t.words} (rowid, ${FTS_COLUMNS}) VALUES (@rowid, @title, @transcript, @screen_text, @tags, @summary, @metadata)`).run({ rowid: episodePk, ...text });
    prepared(this.db, `INSERT INTO ${t.parts} (rowid, ${FTS_COLUMNS}) VALUES (@rowid, @title, @transcript, @screen_text, @tags, @summary, @metadata)`).run({ rowid: episodePk, ...words });
  }

  /** The space for (kind, model), created with its vec0 table on first use. */
  space(kind: VectorKind, model: string, dims: number, at: string): VectorSpaceRow {
    const found = prepared(this.db, 'SELECT * FROM vector_spaces WHERE kind = ? AND model = ?').get(kind, model) as VectorSpaceRow | undefined;
    if (found) {
      if (found.dims !== dims) throw new Error(`vector model ${model} (${kind}) was stored with ${found.dims} dimensions, now ${dims}`);
      return found;
    }
    if (!Number.isInteger(dims) || dims <= 0 || dims % 8 !== 0) throw new Error(`vector dimensions must be a positive multiple of 8, got ${dims}`);
    const table = `vecs_${kind}_${dims}`;
    // Sign bits of each dimension: Hamming distance over them is the coarse first pass, re-scored with the
    // floats. The shard key splits each collection's rows so a KNN asks each part for few (migration 004).
    this.db.exec(
      `CREATE VIRTUAL TABLE IF NOT EXISTS ${table} USING vec0(
         collection_pk INTEGER PARTITION KEY,
         space_id INTEGER PARTITION KEY,
         shard INTEGER PARTITION KEY,
         embedding BIT[${dims}]
       )`,
    );
    const info = prepared(this.db, 'INSERT INTO vector_spaces (kind, model, dims, table_name, created_at) VALUES (?, ?, ?, ?, ?)').run(
      kind, model, dims, table, at,
    );
    return { id: Number(info.lastInsertRowid), kind, model, dims, table_name: table, created_at: at };
  }

  spaces(): VectorSpaceRow[] {
    return prepared(this.db, 'SELECT * FROM vector_spaces ORDER BY id').all() as VectorSpaceRow[];
  }

  /** Whether the collection holds any vector of the space (an index seek, not a count). */
  hasVectors(collectionPk: number, spaceId: number): boolean {
    return prepared(this.db, 'SELECT 1 FROM vectors WHERE collection_pk = ? AND space_id = ? LIMIT 1').get(collectionPk, spaceId) !== undefined;
  }

  /** How many vectors of the space the collection holds, counted up to `cap` (an index range scan that stops there). */
  countVectors(collectionPk: number, spaceId: number, cap: number): number {
    return prepared(this.db, 'SELECT count(*) FROM (SELECT 1 FROM vectors WHERE collection_pk = ? AND space_id = ? LIMIT ?)').pluck().get(collectionPk, spaceId, cap) as number;
  }

  insertVector(space: VectorSpaceRow, row: { episode_pk: number; collection_pk: number; time: number; embedding: Buffer }, bits: Buffer): void {
    const info = prepared(
      this.db,
      'INSERT INTO vectors (episode_pk, collection_pk, space_id, time, embedding) VALUES (@episode_pk, @collection_pk, @space_id, @time, @embedding)',
    ).run({ ...row, space_id: space.id });
    const pk = BigInt(info.lastInsertRowid);
    prepared(this.db, `INSERT INTO ${space.table_name} (rowid, collection_pk, space_id, shard, embedding) VALUES (?, ?, ?, ?, vec_bit(?))`).run(
      pk,
      BigInt(row.collection_pk),
      BigInt(space.id),
      pk % BigInt(VECTOR_SHARDS),
      bits,
    );
  }

  /**
   * Best episodes for a word-level FTS5 query in one collection (optionally one item), by bm25, best first.
   * The short, telling columns (title, on-screen text, tags, summary) are ranked first; only when they hold
   * fewer than `limit` matches is the whole text ranked, after them. Each pass ranks at most the newest
   * RANKED_MATCHES matches, so a word in most episodes costs about what a word in 2,000 does.
   * `match` must already be a safe FTS5 expression (see services/search/query.ts).
   */
  matchWords(match: string, collectionPk: number, limit: number, itemPk: number | null): FtsHit[] {
    const t = this.readyTextTables(collectionPk);
    const range = t && this.itemRange(itemPk);
    if (!t || !range) return [];
    // The scalar subquery runs once: the rowid of the RANKED_MATCHES-th newest match, read from the doclist
    // alone (no bm25); the outer query then ranks only the matches from there on.
    const stmt = prepared(
      this.db,
      `SELECT rowid AS pk, bm25(${t.words}, ${BM25_WEIGHTS}) AS bm25 FROM ${t.words}
       WHERE ${t.words} MATCH @match AND rowid BETWEEN @lo AND @hi
         AND rowid >= coalesce((SELECT rowid FROM ${t.words} WHERE ${t.words} MATCH @match AND rowid BETWEEN @lo AND @hi
                                ORDER BY rowid DESC LIMIT 1 OFFSET ${RANKED_MATCHES - 1}), 0)
       ORDER BY bm25 LIMIT @limit`,
    );
    const short = stmt.all({ match: `${SHORT_COLUMNS} : (${match})`, limit, ...range }) as FtsHit[];
    if (short.length >= limit) return short;
    // Short-column matches stay in front: the whole-text pass may not rank them (the bound keeps only its
    // newest matches), and they outrank transcript-only matches anyway.
    const have = new Set(short.map((h) => h.pk));
    const rest = (stmt.all({ match, limit, ...range }) as FtsHit[]).filter((h) => !have.has(h.pk));
    return [...short, ...rest].slice(0, limit);
  }

  /**
   * Episodes whose words contain the trigram query's strings: first those matching in the short, telling
   * columns (title, on-screen text, tags, summary), then in any column, each newest first. No bm25 here: its
   * document frequency of a trigram phrase means verifying every match in the whole table (100+ ms for a
   * common word part), while reading newest first stops after `limit` rows.
   */
  matchParts(match: string, collectionPk: number, limit: number, itemPk: number | null): number[] {
    const t = this.readyTextTables(collectionPk);
    const range = t && this.itemRange(itemPk);
    if (!t || !range) return [];
    const stmt = prepared(
      this.db,
      `SELECT rowid AS pk FROM ${t.parts} WHERE ${t.parts} MATCH @match AND rowid BETWEEN @lo AND @hi ORDER BY rowid DESC LIMIT @limit`,
    ).pluck();
    const first = stmt.all({ match: `${SHORT_COLUMNS} : (${match})`, limit, ...range }) as number[];
    if (first.length >= limit) return first;
    const seen = new Set(first);
    for (const pk of stmt.all({ match, limit: limit + first.length, ...range }) as number[]) {
      if (first.length >= limit) break;
      if (!seen.has(pk)) first.push(pk);
    }
    return first;
  }

  /** The pk range of an item's episodes (written in one transaction, so contiguous: FTS5 seeks to it); all when no item. */
  private itemRange(itemPk: number | null): { lo: number; hi: number } | null {
    if (itemPk === null) return { lo: 0, hi: Number.MAX_SAFE_INTEGER };
    const r = prepared(this.db, 'SELECT min(pk) AS lo, max(pk) AS hi FROM episodes WHERE item_pk = ?').get(itemPk) as { lo: number | null; hi: number | null };
    return r.lo === null || r.hi === null ? null : { lo: r.lo, hi: r.hi };
  }

  /**
   * About the `k` nearest vectors by Hamming distance of the sign bits, within one collection and space,
   * nearest first: the union of each shard's nearest ⌈1.2·k / shards⌉ (a shard is a random share of the
   * rows, so the true k nearest spread about evenly over them; the margin covers the unevenness).
   */
  nearestBits(space: VectorSpaceRow, collectionPk: number, bits: Buffer, k: number): { pk: number; distance: number }[] {
    const stmt = prepared(
      this.db,
      `SELECT rowid AS pk, distance FROM ${space.table_name}
       WHERE embedding MATCH vec_bit(?) AND k = ? AND collection_pk = ? AND space_id = ? AND shard = ?`,
    );
    const perShard = Math.ceil((1.2 * k) / VECTOR_SHARDS);
    const out: { pk: number; distance: number }[] = [];
    for (let shard = 0; shard < VECTOR_SHARDS; shard++) {
      out.push(...(stmt.all(bits, perShard, BigInt(collectionPk), BigInt(space.id), BigInt(shard)) as { pk: number; distance: number }[]));
    }
    return out.sort((a, b) => a.distance - b.distance);
  }

  vectorsByPk(pks: number[]): VectorRow[] {
    if (pks.length === 0) return [];
    return prepared(this.db, 'SELECT pk, episode_pk, time, embedding FROM vectors WHERE pk IN (SELECT value FROM json_each(?))').all(
      JSON.stringify(pks),
    ) as VectorRow[];
  }

  vectorsOfItem(itemPk: number, spaceId: number): VectorRow[] {
    return prepared(
      this.db,
      `SELECT v.pk, v.episode_pk, v.time, v.embedding FROM vectors v JOIN episodes e ON e.pk = v.episode_pk
       WHERE e.item_pk = ? AND v.space_id = ?`,
    ).all(itemPk, spaceId) as VectorRow[];
  }

  /** Episodes by pk with their item's fields; order not guaranteed. */
  episodesWithItems(pks: number[]): EpisodeWithItem[] {
    if (pks.length === 0) return [];
    return prepared(
      this.db,
      `SELECT e.*, i.media_id, i.src AS item_src, i.thumbnail AS item_thumbnail, a.stored_file
       FROM episodes e JOIN items i ON i.pk = e.item_pk LEFT JOIN item_analysis a ON a.item_pk = e.item_pk
       WHERE e.pk IN (SELECT value FROM json_each(?))`,
    ).all(JSON.stringify(pks)) as EpisodeWithItem[];
  }

  /** Segments of the given episodes, by episode, kind and order. */
  segmentsOf(episodePks: number[]): SegmentRow[] {
    if (episodePks.length === 0) return [];
    return prepared(
      this.db,
      `SELECT * FROM segments WHERE episode_pk IN (SELECT value FROM json_each(?)) ORDER BY episode_pk, kind, seq`,
    ).all(JSON.stringify(episodePks)) as SegmentRow[];
  }

  episodesOfItem(itemPk: number): EpisodeRow[] {
    return prepared(this.db, 'SELECT * FROM episodes WHERE item_pk = ? ORDER BY idx').all(itemPk) as EpisodeRow[];
  }

  analysisOf(itemPk: number): ItemAnalysisRow | undefined {
    return prepared(this.db, 'SELECT * FROM item_analysis WHERE item_pk = ?').get(itemPk) as ItemAnalysisRow | undefined;
  }

  /** Removes everything indexed for an item; the caller is inside the delete (or replace) transaction. */
  deleteItem(itemPk: number): void {
    const episodes = prepared(this.db, 'SELECT pk, collection_pk FROM episodes WHERE item_pk = ?').all(itemPk) as { pk: number; collection_pk: number }[];
    if (episodes.length > 0) this.deleteTextRows(episodes[0].collection_pk, episodes.map((e) => e.pk));
    this.deleteVecRows(
      prepared(this.db, 'SELECT v.pk, v.space_id FROM vectors v JOIN episodes e ON e.pk = v.episode_pk WHERE e.item_pk = ?').all(itemPk) as {
        pk: number;
        space_id: number;
      }[],
    );
    prepared(this.db, 'DELETE FROM episodes WHERE item_pk = ?').run(itemPk);
    prepared(this.db, 'DELETE FROM item_analysis WHERE item_pk = ?').run(itemPk);
  }

  /**
   * Removes part of what is indexed in a collection being deleted: its FTS tables (dropped, whole), then
   * the vectors and episodes (with their segments) of up to `episodes` episodes. Returns how many episodes
   * went; 0 means nothing is left. Each call is meant to be its own short transaction.
   */
  deleteCollectionSome(collectionPk: number, episodes: number): number {
    this.dropTextTables(collectionPk);
    const pks = prepared(this.db, 'SELECT pk FROM episodes WHERE collection_pk = ? LIMIT ?').pluck().all(collectionPk, episodes) as number[];
    if (pks.length === 0) return 0;
    const list = JSON.stringify(pks);
    this.deleteVecRows(
      prepared(this.db, 'SELECT pk, space_id FROM vectors WHERE episode_pk IN (SELECT value FROM json_each(?))').all(list) as { pk: number; space_id: number }[],
    );
    prepared(this.db, 'DELETE FROM episodes WHERE pk IN (SELECT value FROM json_each(?))').run(list);
    return pks.length;
  }

  /** Drops a collection's FTS tables: one DROP each instead of a delete per episode. */
  dropTextTables(collectionPk: number): void {
    const t = textTables(collectionPk);
    this.db.exec(`DROP TABLE IF EXISTS ${t.words}; DROP TABLE IF EXISTS ${t.parts};`);
    prepared(this.db, 'DELETE FROM text_indexes WHERE collection_pk = ?').run(collectionPk);
  }

  private deleteTextRows(collectionPk: number, episodePks: number[]): void {
    const t = this.readyTextTables(collectionPk);
    if (!t) return;
    const words = prepared(this.db, `DELETE FROM ${t.words} WHERE rowid = ?`);
    const parts = prepared(this.db, `DELETE FROM ${t.parts} WHERE rowid = ?`);
    for (const pk of episodePks) {
      words.run(pk);
      parts.run(pk);
    }
  }

  private deleteVecRows(rows: { pk: number; space_id: number }[]): void {
    if (rows.length === 0) return;
    const tables = new Map(this.spaces().map((s) => [s.id, s.table_name]));
    for (const r of rows) {
      const table = tables.get(r.space_id);
      if (table) prepared(this.db, `DELETE FROM ${table} WHERE rowid = ?`).run(BigInt(r.pk));
    }
  }
}
