import type { Db } from '../db.js';

/**
 * Perceptual fingerprints (issue 26): one row per keyframe of a video and per photo, tied to its episode
 * (deleted with it). `hash` is the 64-bit DCT hash as two unsigned 32-bit halves, so a search can count
 * differing bits without parsing text; `detail` the 256-bit hash (32 bytes) and `colour` the 4×4 colour
 * layout (48 bytes). `frame_sequences` holds a video's frames hashed at a steady rate. `duplicate_pairs` holds the verified look-alike item pairs of a collection (kept up to
 * date as items are indexed and deleted), from which GET …/duplicates groups; items get their picture's width and
 * height (the best copy of a group is chosen by them).
 */
export function m017FramePrints(db: Db): void {
  db.exec(`
    CREATE TABLE frame_prints (
      pk INTEGER PRIMARY KEY,
      episode_pk INTEGER NOT NULL REFERENCES episodes(pk) ON DELETE CASCADE,
      item_pk INTEGER NOT NULL,
      collection_pk INTEGER NOT NULL,
      time REAL NOT NULL,
      hash_hi INTEGER NOT NULL,
      hash_lo INTEGER NOT NULL,
      detail BLOB NOT NULL,
      colour BLOB NOT NULL
    );
    CREATE INDEX frame_prints_collection ON frame_prints (collection_pk);
    CREATE INDEX frame_prints_item ON frame_prints (item_pk);
    CREATE INDEX frame_prints_episode ON frame_prints (episode_pk);

    -- A video's frames hashed at a steady rate: 8 bytes a frame (the 64-bit hash, big-endian), frame i at i / fps s.
    CREATE TABLE frame_sequences (
      item_pk INTEGER PRIMARY KEY REFERENCES items(pk) ON DELETE CASCADE,
      collection_pk INTEGER NOT NULL,
      fps REAL NOT NULL,
      hashes BLOB NOT NULL
    );
    CREATE INDEX frame_sequences_collection ON frame_sequences (collection_pk);

    CREATE TABLE duplicate_pairs (
      collection_pk INTEGER NOT NULL,
      a_pk INTEGER NOT NULL REFERENCES items(pk) ON DELETE CASCADE,
      b_pk INTEGER NOT NULL REFERENCES items(pk) ON DELETE CASCADE,
      similarity REAL NOT NULL,
      overlap_a REAL NOT NULL,
      overlap_b REAL NOT NULL,
      PRIMARY KEY (a_pk, b_pk),
      CHECK (a_pk < b_pk)
    );
    CREATE INDEX duplicate_pairs_collection ON duplicate_pairs (collection_pk);
    CREATE INDEX duplicate_pairs_b ON duplicate_pairs (b_pk);

    -- The picture's size as shown (rotation applied), for choosing which copy to keep; null for audio and older items.
    ALTER TABLE items ADD COLUMN width INTEGER;
    ALTER TABLE items ADD COLUMN height INTEGER;
  `);
}
