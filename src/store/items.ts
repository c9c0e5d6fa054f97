import type { Db } from './connection.js';
import { prepared } from './statements.js';
import { stagedItem } from './staging.js';
import { filterArgs, ITEM_MATCH_SQL, type NearFilter } from './item-filter.js';

/** An items row as stored. */
export interface ItemRow {
  pk: number;
  cursor: string;
  collection_pk: number;
  media_id: string;
  type: 'video' | 'audio' | 'image';
  title: string | null;
  src: string | null;
  thumbnail: string | null;
  duration: number | null;
  additional_metadata: string | null;
  created_at: string;
  updated_at: string;
  /** When the media was recorded (ISO 8601), and where that came from (see {@link CaptureSource}). */
  captured_at: string | null;
  captured_at_source: CaptureSource | null;
  latitude: number | null;
  longitude: number | null;
  /** JSON of the place at latitude/longitude (media/places/gazetteer.ts's Place); null when none or not looked up. */
  place: string | null;
  /** The place's names as searchable words; null while not looked up (see migration 033). */
  place_words: string | null;
  /** The folder a scan found the file in; null for items indexed one by one. */
  folder_pk: number | null;
  /** 1 when the owner set the title (or the metadata) by hand: re-indexing keeps it. */
  title_edited: number;
  metadata_edited: number;
  /** Bytes of the media file when it was indexed; null when unknown. */
  size: number | null;
  /** The picture's size as shown (rotation applied); null for audio and items indexed before it was kept. */
  width: number | null;
  height: number | null;
}

/**
 * Where an item's capture time comes from: `metadata` (the file states when it was recorded: a container's
 * creation_time, EXIF DateTimeOriginal), `filename` (the file's name states it: `IMG_20190714_093012`,
 * `Screenshot 2023-10-05 at 14.32.11`; read in the server's zone) or `file` (only a file-system date, never
 * shown as a recording date).
 */
export type CaptureSource = 'metadata' | 'filename' | 'file';

/** A place of a collection, with its number of items (see ItemRepository.places). */
export interface PlaceCount {
  city: string;
  region: string | null;
  country: string;
  country_code: string;
  items: number;
  latitude: number;
  longitude: number;
}

/** When items of a listing were recorded: ISO times, either end open. */
export interface CapturedSpan {
  after: string | null;
  before: string | null;
}

/** The parameters of ITEM_MATCH_SQL for an items listing: type, place and when it was recorded. */
const listArgs = (collectionPk: number, type: ItemRow['type'] | null, near: NearFilter | null, span: CapturedSpan | null) => ({
  collection: collectionPk,
  ...filterArgs({ type, after: span?.after ?? null, before: span?.before ?? null, folderPk: null, near }),
});

/** The orders a collection's items can be listed in (see ItemRepository.sorted). */
export type ItemSort = 'added' | 'name' | 'captured' | 'duration';

/** The column each sort orders by, and whether items without a value go last (in either direction). */
const ORDER_BY: Record<ItemSort, { term: string; nullsLast: boolean }> = {
  added: { term: 'cursor', nullsLast: false },
  name: { term: 'coalesce(title, media_id) COLLATE NOCASE', nullsLast: false },
  captured: { term: 'captured_at', nullsLast: true },
  duration: { term: 'duration', nullsLast: true },
};

/** The capture, folder and detail fields, optional on insert (items indexed one by one may have none). */
type Optionals = 'captured_at' | 'captured_at_source' | 'latitude' | 'longitude' | 'place' | 'place_words' | 'folder_pk' | 'title_edited' | 'metadata_edited' | 'size' | 'width' | 'height';

/** What {@link ItemRepository.insert} takes. */
export type ItemInsert = Omit<ItemRow, 'pk' | Optionals> & Partial<Pick<ItemRow, Optionals>>;

/**
 * The items table: media items of a collection, paged by their UUIDv7 cursor.
 * @example
 * new ItemRepository(db).page(collection.pk, null, 10);
 */
export class ItemRepository {
  constructor(private readonly db: Db) {}

  insert(input: ItemInsert): ItemRow {
    const row = { captured_at: null, captured_at_source: null, latitude: null, longitude: null, place: null, place_words: null, folder_pk: null, title_edited: 0, metadata_edited: 0, size: null, width: null, height: null, ...input };
    const info = prepared(
      this.db,
      `INSERT INTO items (cursor, collection_pk, media_id, type, title, src, thumbnail, duration, additional_metadata, created_at, updated_at,
                          captured_at, captured_at_source, latitude, longitude, place, place_words, folder_pk, title_edited, metadata_edited, size, width, height)
       VALUES (@cursor, @collection_pk, @media_id, @type, @title, @src, @thumbnail, @duration, @additional_metadata, @created_at, @updated_at,
               @captured_at, @captured_at_source, @latitude, @longitude, @place, @place_words, @folder_pk, @title_edited, @metadata_edited, @size, @width, @height)`,
    ).run(row);
    return { ...row, pk: Number(info.lastInsertRowid) };
  }

  /** The owner's own title and metadata: stored and marked, so re-indexing keeps them. */
  edit(pk: number, patch: { title?: string | null; additional_metadata?: string | null }, at: string): void {
    if (patch.title !== undefined) prepared(this.db, 'UPDATE items SET title = ?, title_edited = 1, updated_at = ? WHERE pk = ?').run(patch.title, at, pk);
    if (patch.additional_metadata !== undefined) {
      prepared(this.db, 'UPDATE items SET additional_metadata = ?, metadata_edited = 1, updated_at = ? WHERE pk = ?').run(patch.additional_metadata, at, pk);
    }
  }

  /** Items with GPS whose place was never looked up (stored before places existed), a page at a time. */
  placesPending(limit: number): Pick<ItemRow, 'pk' | 'collection_pk' | 'latitude' | 'longitude'>[] {
    return prepared(this.db, `SELECT pk, collection_pk, latitude, longitude FROM items WHERE latitude IS NOT NULL AND place_words IS NULL AND NOT ${stagedItem('pk')} ORDER BY pk LIMIT ?`).all(limit) as Pick<ItemRow, 'pk' | 'collection_pk' | 'latitude' | 'longitude'>[];
  }

  /** Records the place looked up for an item (place null and words '' when its point has none). */
  setPlace(pk: number, place: string | null, words: string): void {
    prepared(this.db, 'UPDATE items SET place = ?, place_words = ? WHERE pk = ?').run(place, words, pk);
  }

  /** Where a folder item lies inside its folder (`trips/beach.mp4`), or null. */
  folderPath(pk: number): string | null {
    return (prepared(this.db, 'SELECT f.rel_path FROM items i JOIN folder_files f ON f.folder_pk = i.folder_pk AND f.media_id = i.media_id WHERE i.pk = ?').pluck().get(pk) as string | undefined) ?? null;
  }

  /** Items a folder's scans brought in (folder deletion). */
  listForFolder(folderPk: number): ItemRow[] {
    return prepared(this.db, 'SELECT * FROM items WHERE folder_pk = ?').all(folderPk) as ItemRow[];
  }

  /** Detaches a folder's items from it (the folder is deleted but its items stay). */
  detachFolder(folderPk: number): void {
    prepared(this.db, 'UPDATE items SET folder_pk = NULL WHERE folder_pk = ?').run(folderPk);
  }

  byPk(pk: number): ItemRow | undefined {
    return prepared(this.db, 'SELECT * FROM items WHERE pk = ?').get(pk) as ItemRow | undefined;
  }

  /**
   * Whether the item row `pk` still exists: cheaper than {@link byPk} where only that matters.
   * @example
   * store.items.exists(42); // false once deleted or replaced by a re-index
   */
  exists(pk: number): boolean {
    // A replaced item waits in the hidden collection until it is removed (store/staging.ts): gone already.
    return prepared(this.db, `SELECT 1 FROM items WHERE pk = ? AND NOT ${stagedItem('pk')}`).pluck().get(pk) !== undefined;
  }

  byPks(pks: readonly number[]): ItemRow[] {
    if (pks.length === 0) return [];
    return prepared(this.db, 'SELECT * FROM items WHERE pk IN (SELECT value FROM json_each(?))').all(JSON.stringify(pks)) as ItemRow[];
  }

  find(collectionPk: number, mediaId: string): ItemRow | undefined {
    return prepared(this.db, 'SELECT * FROM items WHERE collection_pk = ? AND media_id = ?').get(collectionPk, mediaId) as
      | ItemRow
      | undefined;
  }

  /** Items after `cursor` (exclusive) in creation order; `limit + 1` rows tell whether a next page exists. */
  page(collectionPk: number, cursor: string | null, limit: number): ItemRow[] {
    return prepared(
      this.db,
      'SELECT * FROM items WHERE collection_pk = ? AND cursor > ? ORDER BY cursor LIMIT ?',
    ).all(collectionPk, cursor ?? '', limit) as ItemRow[];
  }

  /** How many items a collection has (of one type, near a place, recorded in a span, when given). */
  count(collectionPk: number, type: ItemRow['type'] | null, near: NearFilter | null = null, span: CapturedSpan | null = null): number {
    return prepared(this.db, `SELECT count(*) FROM items WHERE ${ITEM_MATCH_SQL}`).pluck().get(listArgs(collectionPk, type, near, span)) as number;
  }

  /** A page of a collection's items in another order than the cursor's, by position. */
  sorted(collectionPk: number, q: { sort: ItemSort; order: 'asc' | 'desc'; type: ItemRow['type'] | null; near?: NearFilter | null; span?: CapturedSpan | null; offset: number; limit: number }): ItemRow[] {
    const dir = q.order === 'desc' ? 'DESC' : 'ASC';
    const { term, nullsLast } = ORDER_BY[q.sort];
    // Ties follow the order items were added in, in the same direction.
    const orderBy = `${nullsLast ? `${term} IS NULL, ` : ''}${term} ${dir}`;
    return prepared(this.db, `SELECT * FROM items WHERE ${ITEM_MATCH_SQL} ORDER BY ${orderBy}, cursor ${dir} LIMIT @limit OFFSET @offset`).all({
      ...listArgs(collectionPk, q.type, q.near ?? null, q.span ?? null),
      limit: q.limit,
      offset: q.offset,
    }) as ItemRow[];
  }

  /**
   * The places a collection's items were recorded at, with how many items each and their mean point, most
   * items first.
   */
  places(collectionPk: number): PlaceCount[] {
    // Grouped by the stored JSON through the covering index items_places (migration 44), then parsed once a
    // group: the same city stored with another JSON (a district) is merged here, its mean point weighted.
    const groups = prepared(
      this.db,
      `SELECT place, count(*) AS items, avg(latitude) AS latitude, avg(longitude) AS longitude
       FROM items INDEXED BY items_places WHERE collection_pk = ? AND place IS NOT NULL GROUP BY place`,
    ).all(collectionPk) as { place: string; items: number; latitude: number; longitude: number }[];
    const byCity = new Map<string, PlaceCount>();
    for (const g of groups) {
      const p = JSON.parse(g.place) as Pick<PlaceCount, 'city' | 'region' | 'country' | 'country_code'>;
      const key = `${p.country_code}\u0000${p.region ?? ''}\u0000${p.city}`;
      const seen = byCity.get(key);
      if (!seen) {
        byCity.set(key, { city: p.city, region: p.region ?? null, country: p.country, country_code: p.country_code, items: g.items, latitude: g.latitude, longitude: g.longitude });
        continue;
      }
      const items = seen.items + g.items;
      seen.latitude = (seen.latitude * seen.items + g.latitude * g.items) / items;
      seen.longitude = (seen.longitude * seen.items + g.longitude * g.items) / items;
      seen.items = items;
    }
    return [...byCity.values()].sort((a, b) => b.items - a.items || (a.city < b.city ? -1 : a.city > b.city ? 1 : 0));
  }

  /**
   * The words of the places a collection's items were recorded at (each distinct `place_words` once): the
   * city's names in its spellings, district, region and country.
   * @example
   * store.items.placeWords(3); // ['Lisbon Lissabon Lisboa … Portugal', …]
   */
  placeWords(collectionPk: number): string[] {
    return prepared(this.db, "SELECT DISTINCT place_words FROM items WHERE collection_pk = ? AND place_words IS NOT NULL AND place_words <> ''").pluck().all(collectionPk) as string[];
  }

  listThumbnails(collectionPk: number, limit: number): string[] {
    const rows = prepared(
      this.db,
      'SELECT thumbnail FROM items WHERE collection_pk = ? AND thumbnail IS NOT NULL ORDER BY cursor LIMIT ?',
    ).all(collectionPk, limit) as { thumbnail: string }[];
    return rows.map((r) => r.thumbnail);
  }

  /**
   * The first `limit` thumbnails (list order) of each collection, in one statement: a correlated subquery
   * per collection seeks the (collection_pk, cursor) index and stops after `limit` rows.
   */
  thumbnailsOf(collectionPks: number[], limit: number): Map<number, string[]> {
    const rows = prepared(
      this.db,
      `SELECT c.value AS pk,
              (SELECT json_group_array(t.thumbnail) FROM (SELECT thumbnail FROM items
                 WHERE collection_pk = c.value AND thumbnail IS NOT NULL ORDER BY cursor LIMIT ?) t) AS thumbnails
       FROM json_each(?) c`,
    ).all(limit, JSON.stringify(collectionPks)) as { pk: number; thumbnails: string }[];
    return new Map(rows.map((r) => [r.pk, JSON.parse(r.thumbnails) as string[]]));
  }

  listForCollection(collectionPk: number): ItemRow[] {
    return prepared(this.db, 'SELECT * FROM items WHERE collection_pk = ? ORDER BY cursor').all(collectionPk) as ItemRow[];
  }

  /** Deletes up to `limit` items of a collection (their analysis rows cascade); returns how many. */
  deleteSome(collectionPk: number, limit: number): number {
    return prepared(this.db, 'DELETE FROM items WHERE pk IN (SELECT pk FROM items WHERE collection_pk = ? LIMIT ?)').run(collectionPk, limit).changes;
  }

  delete(pk: number): void {
    prepared(this.db, 'DELETE FROM items WHERE pk = ?').run(pk);
  }
}
