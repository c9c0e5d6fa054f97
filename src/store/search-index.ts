import type { Db } from './connection.js';
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

/** Restricts a search to some items of the collection (vidx extras of POST /search); null fields do not restrict. */
export interface ItemFilter {
  type: 'video' | 'audio' | 'image' | null;
  /** ISO 8601 UTC bounds on captured_at, inclusive. */
  after: string | null;
  before: string | null;
  folderPk: number | null;
}

/** The SQL condition of an {@link ItemFilter} on episode alias `e` (named parameters @f_type, @f_after, @f_before, @f_folder). */
const ITEM_FILTER_SQL = `e.item_pk IN (SELECT pk FROM items WHERE collection_pk = @collection
  AND (@f_type IS NULL OR type = @f_type) AND (@f_after IS NULL OR captured_at >= @f_after)
  AND (@f_before IS NULL OR captured_at <= @f_before) AND (@f_folder IS NULL OR folder_pk = @f_folder))`;

const filterArgs = (f: ItemFilter) => ({ f_type: f.type, f_after: f.after, f_before: f.before, f_folder: f.folderPk });

/** An episode with the fields of its item that results need. */
export interface EpisodeWithItem extends EpisodeRow {
  media_id: string;
  item_type: 'video' | 'audio' | 'image';
  captured_at: string | null;
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

// The FTS queries say CROSS JOIN to keep the FTS table as the outer loop: with a rowid range the planner
// otherwise walks the collection's episodes and runs one MATCH per episode (seconds instead of milliseconds).

/**
 * Episodes, segments, the two FTS5 tables and the vectors (sqlite-vec vec0 tables created lazily per kind
 * and size, partitioned by collection and vector space). Writes never open their own transaction: the
 * search index service wraps one item's rows in one.
 * @example
 * const repo = new SearchIndexRepository(db);
 * repo.matchEpisodes('episode_fts', '"penalty"', collectionPk, 30, null);
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

  /** Indexes an episode in both FTS tables: `words` is the trigram table's per-column distinct-word text. */
  insertText(episodePk: number, text: EpisodeText, words: EpisodeText): void {
    prepared(this.db, `INSERT INTO episode_fts (rowid, ${FTS_COLUMNS}) VALUES (@rowid, @title, @transcript, @screen_text, @tags, @summary, @metadata)`).run({
      rowid: episodePk,
      ...text,
    });
    prepared(this.db, `INSERT INTO episode_trigram (rowid, ${FTS_COLUMNS}) VALUES (@rowid, @title, @transcript, @screen_text, @tags, @summary, @metadata)`).run({
      rowid: episodePk,
      ...words,
    });
  }

  /** The space for (kind, model), created with its vec0 table on first use. */
  space(kind: VectorKind, model: string, dims: number, at: string): VectorSpaceRow {
    const found = prepared(this.db, 'SELECT * FROM vector_spaces WHERE kind = ? AND model = ?').get(kind, model) as VectorSpaceRow | undefined;
    if (found) {
      if (found.dims !== dims) throw new Error(`vector model ${model} (${kind}) was stored with ${found.dims} dimensions, now ${dims}`);
      return found;
    }
    if (!Number.isInteger(dims) || dims <= 0 || dims % 8 !== 0) throw new Error(`vector dimensions must be a positive multiple of 8, got ${dims}`);
    const table = `vec_${kind}_${dims}`;
    // Sign bits of each dimension: Hamming distance over them is the coarse first pass, re-scored with the floats.
    this.db.exec(
      `CREATE VIRTUAL TABLE IF NOT EXISTS ${table} USING vec0(
         collection_pk INTEGER PARTITION KEY,
         space_id INTEGER PARTITION KEY,
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

  insertVector(space: VectorSpaceRow, row: { episode_pk: number; collection_pk: number; time: number; embedding: Buffer }, bits: Buffer): void {
    const info = prepared(
      this.db,
      'INSERT INTO vectors (episode_pk, collection_pk, space_id, time, embedding) VALUES (@episode_pk, @collection_pk, @space_id, @time, @embedding)',
    ).run({ ...row, space_id: space.id });
    prepared(this.db, `INSERT INTO ${space.table_name} (rowid, collection_pk, space_id, embedding) VALUES (?, ?, ?, vec_bit(?))`).run(
      BigInt(info.lastInsertRowid),
      BigInt(row.collection_pk),
      BigInt(space.id),
      bits,
    );
  }

  /**
   * Best episodes for a word-level FTS5 query in one collection (optionally one item), by bm25, best first.
   * The short, telling columns (title, on-screen text, tags, summary) are ranked first; only when they hold
   * fewer than `limit` matches is the whole text ranked. bm25 costs about 2 µs per matching episode, so a
   * word in half of 100,000 transcripts would otherwise take 100+ ms; an episode with the word in those
   * columns outranks most transcript-only matches anyway (their bm25 weights are higher).
   * `match` must already be a safe FTS5 expression (see services/search/query.ts).
   */
  matchWords(match: string, collectionPk: number, limit: number, itemPk: number | null, filter: ItemFilter | null = null): FtsHit[] {
    const range = this.itemRange(itemPk);
    if (range === null) return [];
    const stmt = prepared(
      this.db,
      `SELECT episode_fts.rowid AS pk, bm25(episode_fts, ${BM25_WEIGHTS}) AS bm25
       FROM episode_fts CROSS JOIN episodes e ON e.pk = episode_fts.rowid
       WHERE episode_fts MATCH @match AND episode_fts.rowid BETWEEN @lo AND @hi AND e.collection_pk = @collection${filter ? ` AND ${ITEM_FILTER_SQL}` : ''}
       ORDER BY bm25 LIMIT @limit`,
    );
    const args = { collection: collectionPk, limit, ...range, ...(filter ? filterArgs(filter) : {}) };
    const short = stmt.all({ match: `${SHORT_COLUMNS} : (${match})`, ...args }) as FtsHit[];
    if (short.length >= limit) return short;
    return stmt.all({ match, ...args }) as FtsHit[];
  }

  /** The episodes among `pks` whose item passes the filter (vector hits are filtered after the search). */
  filterEpisodes(pks: number[], collectionPk: number, filter: ItemFilter): Set<number> {
    if (pks.length === 0) return new Set();
    const rows = prepared(this.db, `SELECT e.pk FROM episodes e WHERE e.pk IN (SELECT value FROM json_each(@pks)) AND ${ITEM_FILTER_SQL}`)
      .pluck()
      .all({ pks: JSON.stringify(pks), collection: collectionPk, ...filterArgs(filter) }) as number[];
    return new Set(rows);
  }

  /**
   * Episodes whose words contain the trigram query's strings: first those matching in the short, telling
   * columns (title, on-screen text, tags, summary), then in any column, each newest first. No bm25 here: its
   * document frequency of a trigram phrase means verifying every match in the whole table (100+ ms for a
   * common word part), while reading newest first stops after `limit` rows.
   */
  matchParts(match: string, collectionPk: number, limit: number, itemPk: number | null, filter: ItemFilter | null = null): number[] {
    const range = this.itemRange(itemPk);
    if (range === null) return [];
    const stmt = prepared(
      this.db,
      `SELECT episode_trigram.rowid AS pk FROM episode_trigram CROSS JOIN episodes e ON e.pk = episode_trigram.rowid
       WHERE episode_trigram MATCH @match AND episode_trigram.rowid BETWEEN @lo AND @hi AND e.collection_pk = @collection${filter ? ` AND ${ITEM_FILTER_SQL}` : ''}
       ORDER BY episode_trigram.rowid DESC LIMIT @limit`,
    ).pluck();
    const args = { collection: collectionPk, ...range, ...(filter ? filterArgs(filter) : {}) };
    const first = stmt.all({ match: `${SHORT_COLUMNS} : (${match})`, limit, ...args }) as number[];
    if (first.length >= limit) return first;
    const seen = new Set(first);
    for (const pk of stmt.all({ match, limit: limit + first.length, ...args }) as number[]) {
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

  /** The `k` nearest vectors by Hamming distance of the sign bits, within one collection and space. */
  nearestBits(space: VectorSpaceRow, collectionPk: number, bits: Buffer, k: number): { pk: number; distance: number }[] {
    return prepared(
      this.db,
      `SELECT rowid AS pk, distance FROM ${space.table_name}
       WHERE embedding MATCH vec_bit(?) AND k = ? AND collection_pk = ? AND space_id = ?`,
    ).all(bits, k, BigInt(collectionPk), BigInt(space.id)) as { pk: number; distance: number }[];
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
      `SELECT e.*, i.media_id, i.type AS item_type, i.captured_at, i.src AS item_src, i.thumbnail AS item_thumbnail, a.stored_file
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
    const episodes = prepared(this.db, 'SELECT pk FROM episodes WHERE item_pk = ?').pluck().all(itemPk) as number[];
    this.deleteFtsRows(episodes);
    this.deleteVecRows(
      prepared(this.db, 'SELECT v.pk, v.space_id FROM vectors v JOIN episodes e ON e.pk = v.episode_pk WHERE e.item_pk = ?').all(itemPk) as {
        pk: number;
        space_id: number;
      }[],
    );
    prepared(this.db, 'DELETE FROM episodes WHERE item_pk = ?').run(itemPk);
    prepared(this.db, 'DELETE FROM item_analysis WHERE item_pk = ?').run(itemPk);
  }

  /** Removes everything indexed in a collection; the caller is inside the collection delete transaction. */
  deleteCollection(collectionPk: number): void {
    const episodes = prepared(this.db, 'SELECT pk FROM episodes WHERE collection_pk = ?').pluck().all(collectionPk) as number[];
    this.deleteFtsRows(episodes);
    this.deleteVecRows(prepared(this.db, 'SELECT pk, space_id FROM vectors WHERE collection_pk = ?').all(collectionPk) as { pk: number; space_id: number }[]);
    prepared(this.db, 'DELETE FROM episodes WHERE collection_pk = ?').run(collectionPk);
  }

  private deleteFtsRows(episodePks: number[]): void {
    const fts = prepared(this.db, 'DELETE FROM episode_fts WHERE rowid = ?');
    const tri = prepared(this.db, 'DELETE FROM episode_trigram WHERE rowid = ?');
    for (const pk of episodePks) {
      fts.run(pk);
      tri.run(pk);
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
