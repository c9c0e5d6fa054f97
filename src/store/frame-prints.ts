import type { Db } from './connection.js';
import { prepared } from './statements.js';

/** A frame print as stored: the 64-bit hash in two unsigned halves, the detail hash and colour layout as bytes. */
export interface FramePrintRow {
  pk: number;
  episode_pk: number;
  item_pk: number;
  collection_pk: number;
  time: number;
  hash_hi: number;
  hash_lo: number;
  detail: Buffer;
  colour: Buffer;
}

/** A verified pair of look-alike items (a_pk < b_pk) and how much of each the other covers. */
export interface DuplicatePairRow {
  collection_pk: number;
  a_pk: number;
  b_pk: number;
  similarity: number;
  overlap_a: number;
  overlap_b: number;
}

/**
 * The frame_prints and duplicate_pairs tables (migration 017).
 * @example
 * const repo = new FramePrintRepository(db);
 * repo.ofCollection(3).length; // prints of every keyframe and photo of collection 3
 */
export class FramePrintRepository {
  constructor(private readonly db: Db) {}

  insert(row: Omit<FramePrintRow, 'pk'>): void {
    prepared(
      this.db,
      `INSERT INTO frame_prints (episode_pk, item_pk, collection_pk, time, hash_hi, hash_lo, detail, colour)
       VALUES (@episode_pk, @item_pk, @collection_pk, @time, @hash_hi, @hash_lo, @detail, @colour)`,
    ).run(row);
  }

  /** Stores a video's frame sequence (8 bytes a frame). */
  putSequence(itemPk: number, collectionPk: number, fps: number, hashes: Buffer): void {
    prepared(this.db, 'INSERT OR REPLACE INTO frame_sequences (item_pk, collection_pk, fps, hashes) VALUES (?, ?, ?, ?)').run(itemPk, collectionPk, fps, hashes);
  }

  sequenceOf(itemPk: number): { fps: number; hashes: Buffer } | undefined {
    return prepared(this.db, 'SELECT fps, hashes FROM frame_sequences WHERE item_pk = ?').get(itemPk) as { fps: number; hashes: Buffer } | undefined;
  }

  ofCollection(collectionPk: number): FramePrintRow[] {
    return prepared(this.db, 'SELECT * FROM frame_prints WHERE collection_pk = ? ORDER BY pk').all(collectionPk) as FramePrintRow[];
  }

  ofItem(itemPk: number): FramePrintRow[] {
    return prepared(this.db, 'SELECT * FROM frame_prints WHERE item_pk = ? ORDER BY time').all(itemPk) as FramePrintRow[];
  }

  ofEpisode(episodePk: number): FramePrintRow[] {
    return prepared(this.db, 'SELECT * FROM frame_prints WHERE episode_pk = ? ORDER BY time').all(episodePk) as FramePrintRow[];
  }

  /** Items of the collection that have a frame sequence or prints, oldest first: what duplicates compare. */
  comparableItems(collectionPk: number): number[] {
    return prepared(
      this.db,
      `SELECT item_pk FROM frame_sequences WHERE collection_pk = ? UNION SELECT item_pk FROM frame_prints WHERE collection_pk = ? ORDER BY 1`,
    )
      .pluck()
      .all(collectionPk, collectionPk) as number[];
  }

  /** Replaces the pairs an item is part of (the caller is inside a transaction). */
  replacePairsOf(itemPk: number, pairs: Omit<DuplicatePairRow, 'collection_pk'>[], collectionPk: number): void {
    prepared(this.db, 'DELETE FROM duplicate_pairs WHERE a_pk = ? OR b_pk = ?').run(itemPk, itemPk);
    const insert = prepared(
      this.db,
      `INSERT OR REPLACE INTO duplicate_pairs (collection_pk, a_pk, b_pk, similarity, overlap_a, overlap_b)
       VALUES (@collection_pk, @a_pk, @b_pk, @similarity, @overlap_a, @overlap_b)`,
    );
    for (const p of pairs) insert.run({ ...p, collection_pk: collectionPk });
  }

  pairs(collectionPk: number, minSimilarity: number): DuplicatePairRow[] {
    return prepared(this.db, 'SELECT * FROM duplicate_pairs WHERE collection_pk = ? AND similarity >= ? ORDER BY similarity DESC').all(collectionPk, minSimilarity) as DuplicatePairRow[];
  }

  clearPairs(collectionPk: number): void {
    prepared(this.db, 'DELETE FROM duplicate_pairs WHERE collection_pk = ?').run(collectionPk);
  }
}
