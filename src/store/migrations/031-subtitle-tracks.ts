import type { Db } from '../db.js';

/**
 * Issue 31, every subtitle language: an item keeps its other subtitle tracks besides the transcript.
 * `subtitle_lines` holds their lines by episode (each line in the episode it overlaps most, as transcript
 * segments are) with the track's base language code; `item_analysis.subtitle_languages` lists the item's
 * subtitle languages as JSON, the transcript's first (null for items indexed before: they are read as
 * having only their transcript's). Nothing is rebuilt: older items have no other tracks to index.
 */
export function m031SubtitleTracks(db: Db): void {
  db.exec(`
    ALTER TABLE item_analysis ADD COLUMN subtitle_languages TEXT;
    CREATE TABLE subtitle_lines (
      pk INTEGER PRIMARY KEY,
      episode_pk INTEGER NOT NULL REFERENCES episodes(pk) ON DELETE CASCADE,
      language TEXT NOT NULL,
      seq INTEGER NOT NULL,
      start REAL NOT NULL,
      end REAL NOT NULL,
      text TEXT NOT NULL
    );
    CREATE INDEX subtitle_lines_episode ON subtitle_lines(episode_pk, language, seq);
  `);
}
