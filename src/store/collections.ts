import type { Db } from './connection.js';
import { prepared } from './statements.js';
import { STAGING_COLLECTION } from './staging.js';

/** A collections row as stored. */
export interface CollectionRow {
  pk: number;
  collection_id: string;
  owner: string;
  name: string;
  description: string | null;
  is_public: number;
  created_at: string;
  updated_at: string;
}

/**
 * The collections table.
 * @example
 * new CollectionRepository(db).findById('holidays');
 */
export class CollectionRepository {
  constructor(private readonly db: Db) {}

  /**
   * Adds a collection under a key never used before, even by a collection deleted since: tasks, signed
   * links and files bind to the key, so a reused one would hand a deleted collection's work to a new one.
   */
  insert(row: Omit<CollectionRow, 'pk'>): CollectionRow {
    return this.db.transaction(() => {
      const pk = (prepared(this.db, 'SELECT max(high, coalesce((SELECT max(pk) FROM collections), 0)) + 1 FROM collection_pk_high').pluck().get() as number) ?? 1;
      prepared(this.db, 'UPDATE collection_pk_high SET high = ?').run(pk);
      prepared(
        this.db,
        `INSERT INTO collections (pk, collection_id, owner, name, description, is_public, created_at, updated_at)
         VALUES (@pk, @collection_id, @owner, @name, @description, @is_public, @created_at, @updated_at)`,
      ).run({ ...row, pk });
      return { ...row, pk };
    })();
  }

  findById(collectionId: string): CollectionRow | undefined {
    return prepared(this.db, 'SELECT * FROM collections WHERE collection_id = ? AND deleting = 0').get(collectionId) as CollectionRow | undefined;
  }

  /** The collection by its internal key unless its delete has started: what tasks and signed links bind to. */
  findLiveByPk(pk: number): CollectionRow | undefined {
    return prepared(this.db, 'SELECT * FROM collections WHERE pk = ? AND deleting = 0').get(pk) as CollectionRow | undefined;
  }

  findByPk(pk: number): CollectionRow | undefined {
    return prepared(this.db, 'SELECT * FROM collections WHERE pk = ?').get(pk) as CollectionRow | undefined;
  }

  listByOwner(owner: string): CollectionRow[] {
    return prepared(this.db, 'SELECT * FROM collections WHERE owner = ? AND deleting = 0 ORDER BY created_at, pk').all(owner) as CollectionRow[];
  }

  listPublic(): CollectionRow[] {
    return prepared(this.db, 'SELECT * FROM collections WHERE is_public = 1 AND deleting = 0 ORDER BY created_at, pk').all() as CollectionRow[];
  }

  update(pk: number, patch: { name: string; description: string | null; is_public: number; updated_at: string }): void {
    prepared(
      this.db,
      'UPDATE collections SET name = @name, description = @description, is_public = @is_public, updated_at = @updated_at WHERE pk = @pk',
    ).run({ ...patch, pk });
  }

  /**
   * Hides a collection for its batched delete: marked, and its id renamed to one no request can name
   * (ids are letters, digits, `_` and `-`), so the id can be used again at once.
   */
  markDeleting(pk: number): void {
    prepared(this.db, "UPDATE collections SET deleting = 1, collection_id = '~deleting-' || pk WHERE pk = ?").run(pk);
  }

  /** Collections whose delete was started and not finished (a restart resumes them). */
  deleting(): number[] {
    // The hidden collection of staged items is no deleted one (services/search/staged-write.ts removes what it holds).
    return prepared(this.db, 'SELECT pk FROM collections WHERE deleting = 1 AND collection_id != ? ORDER BY pk').pluck().all(STAGING_COLLECTION) as number[];
  }

  /** Items, episodes and vectors go with it through ON DELETE CASCADE and the item cleanup hooks. */
  delete(pk: number): void {
    prepared(this.db, 'DELETE FROM collections WHERE pk = ?').run(pk);
  }
}
