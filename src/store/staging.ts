import type { Db } from './connection.js';
import { prepared } from './statements.js';

/** The hidden collection staged items wait in: no caller can name it (`~` is no collection id), no list shows it. */
export const STAGING_COLLECTION = '~staging';

/** What a staged item is there for: being written (then shown), or being removed (after a newer version was shown). */
export type StagedPurpose = 'storing' | 'dropping';

/** A staged_items row: the item, the collection whose search tables and vectors hold its rows, and why. */
export interface StagedRow {
  item_pk: number;
  collection_pk: number;
  purpose: StagedPurpose;
  started_at: string;
}

/**
 * SQL that is true for an item being staged (`item` names its pk): reads that reach its rows by a
 * collection's search tables, vectors or prints leave them out with it.
 * @example
 * db.prepare(`SELECT * FROM frame_prints WHERE collection_pk = ? AND NOT ${stagedItem('item_pk')}`);
 */
export const stagedItem = (item: string) => `EXISTS (SELECT 1 FROM staged_items s WHERE s.item_pk = ${item})`;

/**
 * SQL that is true for an episode of an item being staged (`episode` names its pk).
 * @example
 * db.prepare(`SELECT pk FROM vectors v WHERE pk IN (…) AND NOT ${stagedEpisode('v.episode_pk')}`);
 */
export const stagedEpisode = (episode: string) => `EXISTS (SELECT 1 FROM episodes se JOIN staged_items s ON s.item_pk = se.item_pk WHERE se.pk = ${episode})`;

/**
 * Items written in slices (services/search/staged-write.ts): a staged item's row and its episodes sit in the
 * hidden collection `~staging`, its text rows, vectors and prints already in its collection's tables, where
 * reads leave them out (`stagedItem`, `stagedEpisode`) until `show` moves it into its collection in one
 * short transaction. A replaced item goes the other way (`hide`) and is removed in slices afterwards.
 * Writes never open their own transaction.
 * @example
 * const staging = new StagingRepository(db);
 * const hidden = staging.collection(); // the hidden collection's pk
 * staging.mark(itemPk, collectionPk, 'storing', now);
 */
export class StagingRepository {
  constructor(private readonly db: Db) {}

  /**
   * The hidden collection's pk, made the first time (marked deleting: every lookup and list passes it by).
   * Not remembered: the transaction that made it may yet roll back.
   */
  collection(): number {
    const found = prepared(this.db, 'SELECT pk FROM collections WHERE collection_id = ?').pluck().get(STAGING_COLLECTION) as number | undefined;
    if (found !== undefined) return found;
    const high = prepared(this.db, 'SELECT max(high, coalesce((SELECT max(pk) FROM collections), 0)) + 1 FROM collection_pk_high').pluck().get() as number;
    prepared(this.db, 'UPDATE collection_pk_high SET high = ?').run(high);
    prepared(
      this.db,
      `INSERT INTO collections (pk, collection_id, owner, name, description, is_public, created_at, updated_at, deleting)
       VALUES (?, ?, '~vidx', 'items being stored', NULL, 0, datetime('now'), datetime('now'), 1)`,
    ).run(high, STAGING_COLLECTION);
    return high;
  }

  mark(itemPk: number, collectionPk: number, purpose: StagedPurpose, at: string): void {
    prepared(this.db, 'INSERT INTO staged_items (item_pk, collection_pk, purpose, started_at) VALUES (?, ?, ?, ?)').run(itemPk, collectionPk, purpose, at);
  }

  get(itemPk: number): StagedRow | undefined {
    return prepared(this.db, 'SELECT * FROM staged_items WHERE item_pk = ?').get(itemPk) as StagedRow | undefined;
  }

  /** Every staged item (a start removes those a stop left). */
  all(): StagedRow[] {
    return prepared(this.db, 'SELECT * FROM staged_items ORDER BY item_pk').all() as StagedRow[];
  }

  /** Whether any item of the collection is being staged now (reads of its search tables then leave them out). */
  any(collectionPk: number): boolean {
    return prepared(this.db, 'SELECT 1 FROM staged_items WHERE collection_pk = ? LIMIT 1').get(collectionPk) !== undefined;
  }

  /**
   * Moves a staged item into its collection under its media id and list position (one row, and its
   * episodes: at most a few thousand), and forgets that it was staged.
   */
  show(itemPk: number, collectionPk: number, o: { media_id: string; cursor: string; folder_pk: number | null; created_at: string }): void {
    prepared(this.db, 'UPDATE items SET collection_pk = @collectionPk, media_id = @media_id, cursor = @cursor, folder_pk = @folder_pk, created_at = @created_at WHERE pk = @itemPk').run({ itemPk, collectionPk, ...o });
    prepared(this.db, 'UPDATE episodes SET collection_pk = ? WHERE item_pk = ?').run(collectionPk, itemPk);
    prepared(this.db, 'DELETE FROM staged_items WHERE item_pk = ?').run(itemPk);
  }

  /**
   * Takes an item out of its collection into the hidden one, to be removed in slices: its media id and list
   * position are free at once, its face tracks and duplicate pairs go now (people and pairs count them).
   */
  hide(itemPk: number, collectionPk: number, at: string): void {
    const hidden = this.collection();
    prepared(this.db, "UPDATE items SET collection_pk = ?, media_id = '~dropped-' || pk, cursor = '~dropped-' || pk, folder_pk = NULL WHERE pk = ?").run(hidden, itemPk);
    prepared(this.db, 'UPDATE episodes SET collection_pk = ? WHERE item_pk = ?').run(hidden, itemPk);
    prepared(this.db, 'DELETE FROM face_tracks WHERE item_pk = ?').run(itemPk);
    prepared(this.db, 'DELETE FROM duplicate_pairs WHERE a_pk = ? OR b_pk = ?').run(itemPk, itemPk);
    this.mark(itemPk, collectionPk, 'dropping', at);
  }
}
