import type { Db } from '../db.js';

/**
 * A task's stage in parts a page can translate (issue 23): `stage` keeps the step's name, `stage_item` the
 * item a multi-item task is on (`{n, total, name}`, JSON), so "12/340 beach.mp4: on-screen text" is shown
 * as "12/340 beach.mp4: Text im Bild" in German. Also `item_analysis.faces_scanned`: whether an item's
 * analysis looked for faces, so the People view can say how many items a re-index would still look at.
 */
export function m015TaskSteps(db: Db): void {
  db.exec(`
    ALTER TABLE tasks ADD COLUMN stage_item TEXT;
    -- Whether an item's analysis looked for faces: items indexed before faces were on need a re-index.
    ALTER TABLE item_analysis ADD COLUMN faces_scanned INTEGER NOT NULL DEFAULT 0;
    -- Why a folder's file failed, as a code a page translates (the reason stays the English words).
    ALTER TABLE folder_files ADD COLUMN reason_code TEXT;
  `);
}
