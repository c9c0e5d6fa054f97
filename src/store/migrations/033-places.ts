import type { Db } from '../db.js';

/**
 * Issue 31, places offline: an item with GPS gets the place it was recorded at (city, district, region and
 * country as JSON) and the words that make it findable by that place (its names in English, German and
 * other Latin spellings). `place_words` NULL means "not looked up yet": items stored before this, which
 * the start looks up once the gazetteer is loaded.
 */
export function m033Places(db: Db): void {
  db.exec(`
    ALTER TABLE items ADD COLUMN place TEXT;
    ALTER TABLE items ADD COLUMN place_words TEXT;
    CREATE INDEX items_place_pending ON items (pk) WHERE latitude IS NOT NULL AND place_words IS NULL;
  `);
}
