import type { Db } from '../db.js';

/**
 * One scan per folder at a time (issue 24): a watcher event or a scan request while a scan is queued or
 * running sets `rescan_requested`, and one rescan follows when it ends. `language`: the folder's
 * index_language ('en' | 'de'), or null to let each file's media decide. `folder_files.content_hash`: the
 * SHA-256 of the whole file, which decides whether a file whose date changed still holds the same bytes.
 */
export function m016FolderScans(db: Db): void {
  db.exec(`
    ALTER TABLE folders ADD COLUMN rescan_requested INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE folders ADD COLUMN language TEXT;
    ALTER TABLE folder_files ADD COLUMN content_hash TEXT;
  `);
}
