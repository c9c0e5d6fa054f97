import type { Db } from './connection.js';
import { VECTOR_SHARDS } from './migrations/005-vector-shards.js';
import { allRows, prepared } from './statements.js';
import type { TextIndexRepository } from './text-index.js';
import type { VectorAnnIndexes } from './vector-ann.js';
import { ITEM_FILTER_SQL, ITEM_MATCH_SQL, filterArgs, type ItemFilter } from './item-filter.js';
import { stagedEpisode, stagedItem } from './staging.js';

export type { ItemFilter } from './item-filter.js';

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
  /** 1 when the analysis looked for faces (the collection had faces on and the model was there). */
  faces_scanned?: number;
  /** JSON array of the item's subtitle languages, the transcript's first; null for items indexed before migration 031. */
  subtitle_languages?: string | null;
  /** JSON `[{speaker, start, end}]`: who speaks when; null for photos and items indexed before migration 040. */
  speakers?: string | null;
  /** The pulled speaker pair that made `speakers`; null where the model-free default did (and before migration 042). */
  speakers_model?: string | null;
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
  /** JSON array of the episode's pictures (`{ from, time, thumbnail }`, analysis/pictures.ts); null for audio, photos and items indexed before migration 038. */
  pictures: string | null;
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
  /** An audio line's speaker (its turn's number), else null. */
  speaker?: number | null;
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
  item_type: 'video' | 'audio' | 'image';
  item_title: string | null;
  captured_at: string | null;
  captured_at_source: 'metadata' | 'filename' | 'file' | null;
  /** The item's place as JSON (items.place). */
  place: string | null;
  /** The names the item's place goes by (items.place_words), space-separated. */
  place_words: string | null;
  /** The item's own metadata as JSON (items.additional_metadata). */
  item_metadata: string | null;
  item_src: string | null;
  item_thumbnail: string | null;
  stored_file: string | null;
}

/**
 * Episodes, segments and the vectors (sqlite-vec vec0 tables created lazily per kind and size, partitioned
 * by collection, vector space and shard); deletes also reach the collection's text tables (TextIndexRepository).
 * Writes never open their own transaction: the search index service wraps one item's rows in one.
 * @example
 * const repo = new SearchIndexRepository(db, new TextIndexRepository(db), new VectorAnnIndexes(db, dir));
 * repo.nearestBits(space, collectionPk, bits, 250);
 */
export class SearchIndexRepository {
  constructor(
    private readonly db: Db,
    private readonly text: TextIndexRepository,
    /** null on a read-only connection (a search thread's), which keeps no vector index and writes nothing. */
    private readonly ann: VectorAnnIndexes | null,
  ) {}

  /**
   * Runs `fn` on one committed view of the database (a read transaction): a search thread's reads never see
   * half of a write the request thread commits meanwhile.
   * @example
   * const rows = repo.onOneView(() => [repo.episodesWithItems(pks), repo.segmentsOf(pks)]);
   */
  onOneView<T>(fn: () => T): T {
    return this.db.inTransaction ? fn() : this.db.transaction(fn).deferred();
  }

  insertAnalysis(row: ItemAnalysisRow): void {
    prepared(
      this.db,
      `INSERT INTO item_analysis (item_pk, summary, duration, language, transcript_source, stored_file, warnings, indexed_at, faces_scanned, subtitle_languages, speakers, speakers_model)
       VALUES (@item_pk, @summary, @duration, @language, @transcript_source, @stored_file, @warnings, @indexed_at, @faces_scanned, @subtitle_languages, @speakers, @speakers_model)`,
    ).run({ faces_scanned: 0, subtitle_languages: null, speakers: null, speakers_model: null, ...row });
  }

  insertEpisode(row: Omit<EpisodeRow, 'pk'>): number {
    const info = prepared(
      this.db,
      `INSERT INTO episodes (item_pk, collection_pk, idx, start, end, summary, thumbnail, thumbnail_time, screen_text, tags, pictures)
       VALUES (@item_pk, @collection_pk, @idx, @start, @end, @summary, @thumbnail, @thumbnail_time, @screen_text, @tags, @pictures)`,
    ).run(row);
    return Number(info.lastInsertRowid);
  }

  insertSegment(row: Omit<SegmentRow, 'pk'>): void {
    prepared(
      this.db,
      `INSERT INTO segments (episode_pk, kind, seq, start, end, text, ocr, tags, speaker)
       VALUES (@episode_pk, @kind, @seq, @start, @end, @text, @ocr, @tags, @speaker)`,
    ).run({ speaker: null, ...row });
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

  /** Stores a unit vector (float32 blob) with its sign bits, and adds it to the collection's nearest-neighbour index. */
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
    const e = row.embedding;
    this.ann?.add(row.collection_pk, space, Number(pk), new Float32Array(e.buffer.slice(e.byteOffset, e.byteOffset + e.byteLength)));
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
   * The first episode of each item of the collection that passes the filter, in the order the items were
   * recorded (oldest first): what a search that is only a date lists. `itemPk`: only that item's.
   * @example
   * repo.firstEpisodesRecorded(3, { type: null, after: '2019-01-01T00:00:00.000Z', before: '2019-12-31T23:59:59.999Z', folderPk: null }, 20);
   */
  firstEpisodesRecorded(collectionPk: number, filter: ItemFilter, limit: number, itemPk: number | null = null): number[] {
    // Items in capture order through items_captured, each item's first episode through UNIQUE (item_pk, idx):
    // no pass over all the collection's episodes. Staged items sit in another collection.
    const rows = prepared(
      this.db,
      `SELECT (SELECT e.pk FROM episodes e WHERE e.item_pk = items.pk ORDER BY e.idx LIMIT 1) FROM items
       WHERE ${ITEM_MATCH_SQL} AND (@item IS NULL OR pk = @item)
       ORDER BY captured_at, pk LIMIT @limit`,
    )
      .pluck()
      .all({ collection: collectionPk, ...filterArgs(filter), limit, item: itemPk }) as (number | null)[];
    return rows.filter((pk): pk is number => pk !== null);
  }

  /**
   * Whether some item of the collection passes the filter (a place named in a search's words is one only
   * where something was recorded).
   * @example
   * repo.hasItems(3, { type: null, after: null, before: null, folderPk: null, near: { kind: 'area', country_code: 'PT', region: null } }); // true
   */
  hasItems(collectionPk: number, filter: ItemFilter): boolean {
    return prepared(this.db, `SELECT 1 FROM items WHERE ${ITEM_MATCH_SQL} LIMIT 1`).pluck().get({ collection: collectionPk, ...filterArgs(filter) }) !== undefined;
  }

  /** The items of the collection that pass the filter (fingerprint hits are filtered by item). */
  filterItems(collectionPk: number, filter: ItemFilter): number[] {
    return prepared(this.db, `SELECT DISTINCT e.item_pk FROM episodes e WHERE e.collection_pk = @collection AND ${ITEM_FILTER_SQL}`)
      .pluck()
      .all({ collection: collectionPk, ...filterArgs(filter) }) as number[];
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

  /**
   * The pks of about the `k` nearest vectors by cosine from the collection's HNSW index, nearest first;
   * null while that index is being (re)built (then nearestBits answers).
   */
  nearestApprox(space: VectorSpaceRow, collectionPk: number, query: Float32Array, k: number): number[] | null {
    return this.ann ? this.ann.nearest(collectionPk, space, query, k) : null;
  }

  /** Whether the collection's HNSW index of the space is ready (opening it, or starting its rebuild, when not). */
  approxReady(space: VectorSpaceRow, collectionPk: number): boolean {
    return this.ann?.isReady(collectionPk, space) ?? false;
  }

  /** Stored vectors by pk, only those of the collection and space (an index may name rows since deleted or reused). */
  vectorsByPk(pks: number[], collectionPk: number, spaceId: number): VectorRow[] {
    if (pks.length === 0) return [];
    return allRows<VectorRow>(
      this.db,
      // A staged item's vectors are in the collection's indexes before the item is shown: left out until then.
      `SELECT pk, episode_pk, time, embedding FROM vectors WHERE pk IN (SELECT value FROM json_each(?)) AND collection_pk = ? AND space_id = ? AND NOT ${stagedEpisode('vectors.episode_pk')}`,
      JSON.stringify(pks),
      collectionPk,
      spaceId,
    );
  }

  vectorsOfItem(itemPk: number, spaceId: number): VectorRow[] {
    return prepared(
      this.db,
      `SELECT v.pk, v.episode_pk, v.time, v.embedding FROM vectors v JOIN episodes e ON e.pk = v.episode_pk
       WHERE e.item_pk = ? AND v.space_id = ?`,
    ).all(itemPk, spaceId) as VectorRow[];
  }

  /** Episodes by pk with their item's fields (never those of an item being staged); order not guaranteed. */
  episodesWithItems(pks: number[]): EpisodeWithItem[] {
    if (pks.length === 0) return [];
    return allRows<EpisodeWithItem>(
      this.db,
      `SELECT e.*, i.media_id, i.type AS item_type, i.title AS item_title, i.captured_at, i.captured_at_source, i.place, i.place_words,
         i.additional_metadata AS item_metadata, i.src AS item_src, i.thumbnail AS item_thumbnail, a.stored_file
       FROM episodes e JOIN items i ON i.pk = e.item_pk LEFT JOIN item_analysis a ON a.item_pk = e.item_pk
       WHERE e.pk IN (SELECT value FROM json_each(?)) AND NOT ${stagedItem('e.item_pk')}`,
      JSON.stringify(pks),
    );
  }

  /**
   * The first episode (lowest index) of each of these items, by item pk: where an item opens.
   * @example
   * repo.firstEpisodes([itemPk]).get(itemPk); // the pk of its episode 0
   */
  firstEpisodes(itemPks: number[]): Map<number, number> {
    if (itemPks.length === 0) return new Map();
    const rows = allRows<{ item_pk: number; pk: number }>(
      this.db,
      `SELECT e.item_pk, e.pk FROM episodes e WHERE e.item_pk IN (SELECT value FROM json_each(?))
         AND e.idx = (SELECT min(f.idx) FROM episodes f WHERE f.item_pk = e.item_pk)`,
      JSON.stringify(itemPks),
    );
    return new Map(rows.map((r) => [r.item_pk, r.pk]));
  }

  /** Segments of the given episodes, by episode, kind and order. */
  segmentsOf(episodePks: number[]): SegmentRow[] {
    if (episodePks.length === 0) return [];
    return allRows<SegmentRow>(this.db, 'SELECT * FROM segments WHERE episode_pk IN (SELECT value FROM json_each(?)) ORDER BY episode_pk, kind, seq', JSON.stringify(episodePks));
  }

  episodesOfItem(itemPk: number): EpisodeRow[] {
    return prepared(this.db, 'SELECT * FROM episodes WHERE item_pk = ? ORDER BY idx').all(itemPk) as EpisodeRow[];
  }

  /** Items of a collection whose analysis did not look for faces (still images and audio included: they may hold none). */
  unscannedForFaces(collectionPk: number): number {
    return prepared(
      this.db,
      "SELECT count(*) FROM items i JOIN item_analysis a ON a.item_pk = i.pk WHERE i.collection_pk = ? AND a.faces_scanned = 0 AND i.type != 'audio'",
    ).pluck().get(collectionPk) as number;
  }

  analysisOf(itemPk: number): ItemAnalysisRow | undefined {
    return prepared(this.db, 'SELECT * FROM item_analysis WHERE item_pk = ?').get(itemPk) as ItemAnalysisRow | undefined;
  }

  /**
   * One bounded step of removing an item whose rows sit in `collectionPk`'s tables (a staged item being
   * dropped): up to `rows` of its episodes' segments, subtitle lines, prints or vectors (with their sign
   * bits and nearest-neighbour keys), else up to `rows` of its episodes with their text rows, else the
   * item itself (what is left cascades: its analysis, sequence, staged mark). True while more remains; each
   * call is meant to be a short transaction of its own.
   */
  dropSome(itemPk: number, collectionPk: number, rows: number): boolean {
    const episodes = 'SELECT pk FROM episodes WHERE item_pk = @item';
    const children: [string, string][] = [['segments', `episode_pk IN (${episodes})`], ['subtitle_lines', `episode_pk IN (${episodes})`], ['frame_prints', 'item_pk = @item']];
    for (const [table, where] of children) {
      if (prepared(this.db, `DELETE FROM ${table} WHERE rowid IN (SELECT rowid FROM ${table} WHERE ${where} LIMIT @rows)`).run({ item: itemPk, rows }).changes > 0) return true;
    }
    const vectors = prepared(this.db, `SELECT pk, space_id, collection_pk FROM vectors WHERE episode_pk IN (${episodes}) LIMIT @rows`).all({ item: itemPk, rows }) as { pk: number; space_id: number; collection_pk: number }[];
    if (vectors.length > 0) {
      this.deleteVecRows(vectors);
      for (const space of this.spaces()) {
        const gone = vectors.filter((r) => r.space_id === space.id);
        if (gone.length > 0) this.ann?.remove(gone[0].collection_pk, space, gone.map((r) => r.pk));
      }
      prepared(this.db, 'DELETE FROM vectors WHERE pk IN (SELECT value FROM json_each(?))').run(JSON.stringify(vectors.map((v) => v.pk)));
      return true;
    }
    const pks = prepared(this.db, `${episodes} LIMIT @rows`).pluck().all({ item: itemPk, rows }) as number[];
    if (pks.length > 0) {
      this.text.deleteRows(collectionPk, pks);
      prepared(this.db, 'DELETE FROM episodes WHERE pk IN (SELECT value FROM json_each(?))').run(JSON.stringify(pks));
      return true;
    }
    prepared(this.db, 'DELETE FROM items WHERE pk = ?').run(itemPk);
    return false;
  }

  /** Removes everything indexed for an item; the caller is inside the delete (or replace) transaction. */
  deleteItem(itemPk: number): void {
    const episodes = prepared(this.db, 'SELECT pk, collection_pk FROM episodes WHERE item_pk = ?').all(itemPk) as { pk: number; collection_pk: number }[];
    if (episodes.length > 0) this.text.deleteRows(episodes[0].collection_pk, episodes.map((e) => e.pk));
    const rows = prepared(this.db, 'SELECT v.pk, v.space_id, v.collection_pk FROM vectors v JOIN episodes e ON e.pk = v.episode_pk WHERE e.item_pk = ?').all(
      itemPk,
    ) as { pk: number; space_id: number; collection_pk: number }[];
    this.deleteVecRows(rows);
    for (const space of this.spaces()) {
      const gone = rows.filter((r) => r.space_id === space.id);
      if (gone.length > 0) this.ann?.remove(gone[0].collection_pk, space, gone.map((r) => r.pk));
    }
    prepared(this.db, 'DELETE FROM episodes WHERE item_pk = ?').run(itemPk);
    prepared(this.db, 'DELETE FROM item_analysis WHERE item_pk = ?').run(itemPk);
  }

  /**
   * Removes part of what is indexed in a collection being deleted: first its FTS tables (a batch of rows
   * per call), then the vectors and episodes (with their segments) of up to `episodes` episodes. Returns
   * 0 when nothing is left. Each call is meant to be its own short transaction.
   */
  deleteCollectionSome(collectionPk: number, episodes: number): number {
    this.ann?.dropCollection(collectionPk);
    if (this.text.dropSome(collectionPk, episodes * 5)) return 1;
    const pks = prepared(this.db, 'SELECT pk FROM episodes WHERE collection_pk = ? LIMIT ?').pluck().all(collectionPk, episodes) as number[];
    if (pks.length === 0) return 0;
    const list = JSON.stringify(pks);
    this.deleteVecRows(
      prepared(this.db, 'SELECT pk, space_id FROM vectors WHERE episode_pk IN (SELECT value FROM json_each(?))').all(list) as { pk: number; space_id: number }[],
    );
    prepared(this.db, 'DELETE FROM episodes WHERE pk IN (SELECT value FROM json_each(?))').run(list);
    return pks.length;
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
