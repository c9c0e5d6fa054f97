import type { Db } from '../db.js';

/**
 * Issue 42: a search result shows the picture on screen at its start, not the first picture of its episode.
 * `episodes.pictures` holds the episode's pictures as JSON, `[{ from, time, thumbnail }, …]` in time order
 * (analysis/pictures.ts); null for audio, photos and items indexed before, which show the episode's
 * thumbnail as before.
 * @example
 * m038EpisodePictures(db); // episodes has a pictures column
 */
export function m038EpisodePictures(db: Db): void {
  db.exec('ALTER TABLE episodes ADD COLUMN pictures TEXT');
}
