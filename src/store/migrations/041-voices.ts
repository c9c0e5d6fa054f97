import type { Db } from '../db.js';

/**
 * Issue 45: voices grouped across a collection, off by default (`collections.voices`). A voice track is one
 * speaker of one item with its voiceprint (mean log pitch, MFCC means) and the person it joined; a person's
 * running voice centre lives on the person (`people.voice`, JSON `{pitch, timbre}`; `voice_weight` how many
 * tracks made it). A person may have a voice and no face: their face `vector` is then empty.
 * @example
 * m041Voices(db);
 */
export function m041Voices(db: Db): void {
  db.exec(`
    ALTER TABLE collections ADD COLUMN voices INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE people ADD COLUMN voice TEXT;
    ALTER TABLE people ADD COLUMN voice_weight INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE voice_tracks (
      pk INTEGER PRIMARY KEY,
      collection_pk INTEGER NOT NULL REFERENCES collections(pk) ON DELETE CASCADE,
      item_pk INTEGER NOT NULL REFERENCES items(pk) ON DELETE CASCADE,
      person_pk INTEGER REFERENCES people(pk) ON DELETE CASCADE,
      speaker INTEGER NOT NULL,
      seconds REAL NOT NULL,
      pitch REAL,
      timbre TEXT NOT NULL,
      UNIQUE (item_pk, speaker)
    );
    CREATE INDEX voice_tracks_person ON voice_tracks(person_pk);
    CREATE INDEX voice_tracks_collection ON voice_tracks(collection_pk);
  `);
}
