import type { Db } from '../db.js';

/**
 * Faces and people, per collection (issue 17). A collection's `faces` setting (off by default) says whether
 * indexing looks for faces; turning it off deletes the collection's face rows and people. `face_tracks` holds
 * one row per person per shot of an item (its crop file sits in the item's folder and goes with it);
 * `people` are the groups, numbered per collection, optionally named. Vectors are float32 BLOBs.
 */
export function m010Faces(db: Db): void {
  db.exec(`
    ALTER TABLE collections ADD COLUMN faces INTEGER NOT NULL DEFAULT 0;

    CREATE TABLE people (
      pk INTEGER PRIMARY KEY,
      collection_pk INTEGER NOT NULL REFERENCES collections(pk) ON DELETE CASCADE,
      person_id TEXT NOT NULL,
      name TEXT,
      -- Unit mean of the face vectors assigned so far, and how many: kept when the person's tracks are
      -- replaced by a reindex, so the same face finds the same person_id again.
      vector BLOB NOT NULL,
      weight INTEGER NOT NULL,
      created_at TEXT NOT NULL,
      UNIQUE (collection_pk, person_id)
    );
    CREATE INDEX people_name ON people(collection_pk, name COLLATE NOCASE);

    CREATE TABLE face_tracks (
      pk INTEGER PRIMARY KEY,
      collection_pk INTEGER NOT NULL REFERENCES collections(pk) ON DELETE CASCADE,
      item_pk INTEGER NOT NULL REFERENCES items(pk) ON DELETE CASCADE,
      person_pk INTEGER REFERENCES people(pk) ON DELETE CASCADE,
      start REAL NOT NULL,
      end REAL NOT NULL,
      box_x REAL NOT NULL,
      box_y REAL NOT NULL,
      box_w REAL NOT NULL,
      box_h REAL NOT NULL,
      score REAL NOT NULL,
      thumbnail TEXT,
      vector BLOB
    );
    CREATE INDEX face_tracks_item ON face_tracks(item_pk, start);
    CREATE INDEX face_tracks_person ON face_tracks(person_pk);
    CREATE INDEX face_tracks_collection ON face_tracks(collection_pk);
  `);
}
