import type { Db } from '../db.js';

/**
 * What a person sees of an item (issue 22): which fields its owner changed by hand (`PATCH …/items/{id}`),
 * kept through rescans and re-index; the size of its file; and where its capture time comes from, now told
 * as `metadata` (the file says when it was recorded: a container's creation_time, EXIF) or `file` (only a
 * file-system date is known, which is never a recording date). A folder keeps its last scan's counts and
 * failed files (`last_result`, JSON), so they are not only inside the scan task. A failed task's error gets
 * a code and whether a retry may help, beside its message.
 */
export function m012ItemDetails(db: Db): void {
  db.exec(`
    ALTER TABLE items ADD COLUMN title_edited INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE items ADD COLUMN metadata_edited INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE items ADD COLUMN size INTEGER;
    ALTER TABLE folders ADD COLUMN last_result TEXT;
    ALTER TABLE tasks ADD COLUMN error_code TEXT;
    ALTER TABLE tasks ADD COLUMN error_retryable INTEGER;
    UPDATE items SET captured_at_source = CASE captured_at_source
      WHEN 'container' THEN 'metadata' WHEN 'exif' THEN 'metadata' WHEN 'mtime' THEN 'file' ELSE captured_at_source END;
  `);
}
