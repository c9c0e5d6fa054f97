import type { Db } from '../db.js';

/**
 * Issue 45: who speaks when. A transcript line keeps its speaker (`segments.speaker`, the anonymous number of
 * its turn; null for other segments, lines without one and items indexed before), and an item keeps its turns
 * (`item_analysis.speakers`, JSON `[{speaker, start, end}]`; null before).
 * @example
 * m040Speakers(db);
 */
export function m040Speakers(db: Db): void {
  db.exec('ALTER TABLE segments ADD COLUMN speaker INTEGER');
  db.exec('ALTER TABLE item_analysis ADD COLUMN speakers TEXT');
}
