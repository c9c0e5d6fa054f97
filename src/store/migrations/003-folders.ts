import type { Db } from '../db.js';

/**
 * Folders bound to a collection and the files a scan found in them; capture time and place of items.
 *
 * folder_files is the scan's journal: a row is written (state 'pending', with the media_id the file will
 * get) before a file is indexed and becomes 'indexed' after, so a scan interrupted by a crash resumes with
 * the same media_id and never indexes a finished file twice. `seen` is the number of the last scan that
 * found the file; rows a completed scan did not see are deleted files.
 */
export function m003Folders(db: Db): void {
  db.exec(`
    CREATE TABLE folders (
      pk INTEGER PRIMARY KEY,
      folder_id TEXT NOT NULL UNIQUE,
      collection_pk INTEGER NOT NULL REFERENCES collections(pk) ON DELETE CASCADE,
      owner TEXT NOT NULL,
      path TEXT NOT NULL,
      recursive INTEGER NOT NULL,
      exclude TEXT NOT NULL,
      watch INTEGER NOT NULL,
      created_at TEXT NOT NULL,
      last_scan TEXT,
      scan_task_id TEXT,
      scan_seq INTEGER NOT NULL DEFAULT 0,
      UNIQUE (collection_pk, path)
    );

    CREATE TABLE folder_files (
      pk INTEGER PRIMARY KEY,
      folder_pk INTEGER NOT NULL REFERENCES folders(pk) ON DELETE CASCADE,
      rel_path TEXT NOT NULL,
      size INTEGER NOT NULL,
      mtime_ms REAL NOT NULL,
      fingerprint TEXT,
      media_id TEXT,
      state TEXT NOT NULL CHECK (state IN ('pending', 'indexed', 'ignored', 'failed')),
      reason TEXT,
      seen INTEGER NOT NULL,
      UNIQUE (folder_pk, rel_path)
    );
    CREATE INDEX folder_files_fingerprint ON folder_files(folder_pk, fingerprint);
    CREATE INDEX folder_files_seen ON folder_files(folder_pk, seen);

    -- captured_at_source: 'container' (creation_time), 'exif' (DateTimeOriginal) or 'mtime'.
    ALTER TABLE items ADD COLUMN captured_at TEXT;
    ALTER TABLE items ADD COLUMN captured_at_source TEXT;
    ALTER TABLE items ADD COLUMN latitude REAL;
    ALTER TABLE items ADD COLUMN longitude REAL;
    ALTER TABLE items ADD COLUMN folder_pk INTEGER REFERENCES folders(pk) ON DELETE SET NULL;
    CREATE INDEX items_folder ON items(folder_pk);
    CREATE INDEX items_captured ON items(collection_pk, captured_at);
  `);
}
