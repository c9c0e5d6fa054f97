import type { Db } from '../db.js';

/**
 * Issue 47: the archive by time. An event is items recorded close together in time and place (a day, a
 * trip); `event_id` stays across regrouping and re-indexing (a new grouping takes the id, and the name a
 * person gave, of the old event it shares most items with, by their media ids: `members`). Triggers count
 * in `item_changes`, per collection, every item that came, went or changed its date or place; `event_state` holds a fingerprint of the
 * collection's dated items the events were grouped from: another one means they are grouped again.
 * @example
 * m043Events(db);
 */
export function m043Events(db: Db): void {
  db.exec(`
    CREATE TABLE events (
      pk INTEGER PRIMARY KEY,
      collection_pk INTEGER NOT NULL REFERENCES collections(pk) ON DELETE CASCADE,
      event_id TEXT NOT NULL UNIQUE,
      name TEXT,
      start_at TEXT NOT NULL,
      end_at TEXT NOT NULL,
      cover_item_pk INTEGER REFERENCES items(pk) ON DELETE SET NULL,
      videos INTEGER NOT NULL,
      audio INTEGER NOT NULL,
      images INTEGER NOT NULL,
      places TEXT NOT NULL,
      members TEXT NOT NULL,
      created_at TEXT NOT NULL
    );
    CREATE INDEX events_collection_start ON events(collection_pk, start_at DESC);
    CREATE TABLE event_items (
      event_pk INTEGER NOT NULL REFERENCES events(pk) ON DELETE CASCADE,
      item_pk INTEGER NOT NULL REFERENCES items(pk) ON DELETE CASCADE,
      PRIMARY KEY (event_pk, item_pk)
    );
    CREATE INDEX event_items_item ON event_items(item_pk);
    CREATE TABLE event_state (
      collection_pk INTEGER PRIMARY KEY REFERENCES collections(pk) ON DELETE CASCADE,
      fingerprint TEXT NOT NULL
    );
    CREATE INDEX items_recorded ON items(collection_pk, captured_at, captured_at_source, type);
    CREATE TABLE item_changes (collection_pk INTEGER PRIMARY KEY, n INTEGER NOT NULL);
    CREATE TRIGGER item_changes_insert AFTER INSERT ON items BEGIN
      INSERT INTO item_changes (collection_pk, n) VALUES (new.collection_pk, 1) ON CONFLICT (collection_pk) DO UPDATE SET n = n + 1;
    END;
    CREATE TRIGGER item_changes_delete AFTER DELETE ON items BEGIN
      INSERT INTO item_changes (collection_pk, n) VALUES (old.collection_pk, 1) ON CONFLICT (collection_pk) DO UPDATE SET n = n + 1;
    END;
    CREATE TRIGGER item_changes_update AFTER UPDATE OF collection_pk, captured_at, captured_at_source, place, media_id, type ON items BEGIN
      INSERT INTO item_changes (collection_pk, n) VALUES (old.collection_pk, 1) ON CONFLICT (collection_pk) DO UPDATE SET n = n + 1;
      INSERT INTO item_changes (collection_pk, n) VALUES (new.collection_pk, 1) ON CONFLICT (collection_pk) DO UPDATE SET n = n + 1;
    END;
  `);
}
