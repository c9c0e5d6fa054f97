import type { Db } from '../db.js';

/**
 * Issue 43, nobody stalls everyone: a big item is written in many short transactions instead of one long
 * one, into rows nobody reads yet, and made visible by a last short one. `staged_items` names the items
 * being written so (`storing`) and the replaced ones being removed so afterwards (`dropping`), each with
 * the collection whose search tables and vectors hold its rows; its rows stay in a hidden collection
 * (`~staging`) until then. A start removes whatever a stop left there.
 */
export function m039StagedItems(db: Db): void {
  db.exec(`
    CREATE TABLE staged_items (
      item_pk INTEGER PRIMARY KEY REFERENCES items(pk) ON DELETE CASCADE,
      collection_pk INTEGER NOT NULL,
      purpose TEXT NOT NULL CHECK (purpose IN ('storing', 'dropping')),
      started_at TEXT NOT NULL
    );
    CREATE INDEX staged_items_collection ON staged_items(collection_pk);
  `);
}
