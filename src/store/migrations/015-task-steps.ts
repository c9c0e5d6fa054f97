import type { Db } from '../connection.js';

/**
 * A task's stage in parts a page can translate (issue 23): `stage` keeps the step's name, `stage_item` the
 * item a multi-item task is on (`{n, total, name}`, JSON), so "12/340 beach.mp4: on-screen text" is shown
 * as "12/340 beach.mp4: Text im Bild" in German.
 */
export function m015TaskSteps(db: Db): void {
  db.exec('ALTER TABLE tasks ADD COLUMN stage_item TEXT');
}
