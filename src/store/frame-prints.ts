import type { Db } from './connection.js';
import { prepared } from './statements.js';
import { stagedItem } from './staging.js';

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

/** A video's dense frames and sound as stored (migrations 017, 036); looks and sound are null for videos indexed before them, sound also without sound. */
export interface FrameSequenceRow {
  item_pk: number;
  fps: number;
  /** 8 bytes a frame: the 64-bit hash, big-endian. */
  hashes: Buffer;
  /** 13 bytes a frame (media/perceptual.ts frameLook). */
  looks: Buffer | null;
  sound_fps: number | null;
  /** 5 bytes a frame (media/sound-print.ts). */
  sound: Buffer | null;
}

/** A verified pair of look-alike items (a_pk < b_pk) and how much of each the other covers. */
export interface DuplicatePairRow {
  collection_pk: number;
  a_pk: number;
  b_pk: number;
  similarity: number;
  overlap_a: number;
  overlap_b: number;
  /** Seconds to add to a time of `a_pk` for the same moment in `b_pk` (0 for photos). */
  offset: number;
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

  /** Stores a video's frame sequence (8 bytes a frame), its frames' looks (13 bytes a frame) and its sound print. */
  putSequence(itemPk: number, collectionPk: number, sequence: Omit<FrameSequenceRow, 'item_pk'>): void {
    prepared(this.db, 'INSERT OR REPLACE INTO frame_sequences (item_pk, collection_pk, fps, hashes, looks, sound_fps, sound) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
      itemPk,
      collectionPk,
      sequence.fps,
      sequence.hashes,
      sequence.looks,
      sequence.sound_fps,
      sequence.sound,
    );
  }

  sequenceOf(itemPk: number): FrameSequenceRow | undefined {
    return prepared(this.db, 'SELECT item_pk, fps, hashes, looks, sound_fps, sound FROM frame_sequences WHERE item_pk = ?').get(itemPk) as FrameSequenceRow | undefined;
  }

  /** The version of the copy rules the collection's pairs were found by; 0 when never recorded. */
  checkedBy(collectionPk: number): number {
    return (prepared(this.db, 'SELECT rules FROM duplicate_checks WHERE collection_pk = ?').pluck().get(collectionPk) as number | undefined) ?? 0;
  }

  /** Records that the collection's pairs are found by this version of the rules. */
  markChecked(collectionPk: number, rules: number): void {
    prepared(this.db, 'INSERT OR REPLACE INTO duplicate_checks (collection_pk, rules) VALUES (?, ?)').run(collectionPk, rules);
  }

  /** Forgets a deleted collection's record. */
  forgetChecks(collectionPk: number): void {
    prepared(this.db, 'DELETE FROM duplicate_checks WHERE collection_pk = ?').run(collectionPk);
  }

  ofCollection(collectionPk: number): FramePrintRow[] {
    // A staged item's prints are written before the item is shown: left out until then.
    return prepared(this.db, `SELECT * FROM frame_prints WHERE collection_pk = ? AND NOT ${stagedItem('item_pk')} ORDER BY pk`).all(collectionPk) as FramePrintRow[];
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
      `SELECT item_pk FROM frame_sequences WHERE collection_pk = ? AND NOT ${stagedItem('item_pk')}
       UNION SELECT item_pk FROM frame_prints WHERE collection_pk = ? AND NOT ${stagedItem('item_pk')} ORDER BY 1`,
    )
      .pluck()
      .all(collectionPk, collectionPk) as number[];
  }

  /** Replaces the pairs an item is part of (the caller is inside a transaction). */
  replacePairsOf(itemPk: number, pairs: Omit<DuplicatePairRow, 'collection_pk'>[], collectionPk: number): void {
    prepared(this.db, 'DELETE FROM duplicate_pairs WHERE a_pk = ? OR b_pk = ?').run(itemPk, itemPk);
    const insert = prepared(
      this.db,
      `INSERT OR REPLACE INTO duplicate_pairs (collection_pk, a_pk, b_pk, similarity, overlap_a, overlap_b, offset)
       VALUES (@collection_pk, @a_pk, @b_pk, @similarity, @overlap_a, @overlap_b, @offset)`,
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
