import type { Db } from '../db.js';

/**
 * A collection being deleted: `deleting = 1` hides it from every lookup while its items, episodes and
 * vectors are removed in small batches (a 100k-episode collection took one 16 s transaction before). A
 * collection still marked at start is purged again; its id is renamed on marking, so it is free at once.
 */
export function m006CollectionDeleting(db: Db): void {
  db.exec('ALTER TABLE collections ADD COLUMN deleting INTEGER NOT NULL DEFAULT 0');
}
