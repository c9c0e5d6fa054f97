import type { Db } from '../db.js';

/**
 * Issue 42: duplicates ask more than the brightness of frames. A frame sequence keeps each frame's
 * structure and colours (`looks`, 13 bytes a frame beside its 8-byte hash) and the video's sound print
 * (`sound`, 5 bytes a tenth of a second, `sound_fps` frames a second); both are null for videos indexed
 * before. A pair keeps where its items line up (`offset`: seconds to add to a time of `a_pk` for the same
 * moment in `b_pk`), so search can tell one moment in two copies. `duplicate_checks` records which version of the rules a collection's pairs were found by, so a
 * collection whose pairs an older rule made is checked again before its groups are shown.
 */
export function m036CopyEvidence(db: Db): void {
  db.exec(`
    ALTER TABLE frame_sequences ADD COLUMN looks BLOB;
    ALTER TABLE frame_sequences ADD COLUMN sound_fps REAL;
    ALTER TABLE frame_sequences ADD COLUMN sound BLOB;
    ALTER TABLE duplicate_pairs ADD COLUMN offset REAL NOT NULL DEFAULT 0;
    CREATE TABLE duplicate_checks (
      collection_pk INTEGER PRIMARY KEY,
      rules INTEGER NOT NULL
    );
  `);
}
