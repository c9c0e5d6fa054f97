/**
 * The vidx-extra search filters (media type, capture time, folder, place) as SQL over episodes, shared by the text
 * tables' MATCH queries and the vector hits' post-filter.
 */

/** Restricts a search to some items of the collection (vidx extras of POST /search); null fields do not restrict. */
export interface ItemFilter {
  type: 'video' | 'audio' | 'image' | null;
  /** ISO 8601 UTC bounds on captured_at, inclusive. */
  after: string | null;
  before: string | null;
  folderPk: number | null;
  /** Only items recorded near a point, or in a region or country. */
  near?: NearFilter | null;
}

/**
 * Where items must have been recorded: within `km` of a point (great-circle distance), or in a country
 * (and one of its regions) as the item's place names it.
 */
export type NearFilter =
  | { kind: 'point'; latitude: number; longitude: number; km: number }
  | { kind: 'area'; country_code: string; region: string | null };

/** Kilometres per degree of latitude. */
const KM_PER_DEGREE = 111.2;

/**
 * The SQL condition of an {@link ItemFilter} on the items table (named parameters @collection, @f_type,
 * @f_after, @f_before, @f_folder and the place's @f_lat … @f_region).
 * @example
 * db.prepare(`SELECT * FROM items WHERE ${ITEM_MATCH_SQL}`).all({ collection: 3, ...filterArgs(filter) });
 */
export const ITEM_MATCH_SQL = `collection_pk = @collection
  AND (@f_type IS NULL OR type = @f_type) AND (@f_after IS NULL OR captured_at >= @f_after)
  AND (@f_before IS NULL OR captured_at <= @f_before) AND (@f_folder IS NULL OR folder_pk = @f_folder)
  AND (@f_lat IS NULL OR (latitude BETWEEN @f_lat - @f_dlat AND @f_lat + @f_dlat
    AND 12742 * asin(sqrt(pow(sin(radians(latitude - @f_lat) / 2), 2)
      + cos(radians(@f_lat)) * cos(radians(latitude)) * pow(sin(radians(longitude - @f_lon) / 2), 2))) <= @f_km))
  AND (@f_country IS NULL OR (place ->> '$.country_code' = @f_country AND (@f_region IS NULL OR place ->> '$.region' = @f_region)))`;

/**
 * The SQL condition of an {@link ItemFilter} on episode alias `e` (the parameters of {@link ITEM_MATCH_SQL}).
 * @example
 * db.prepare(`SELECT e.pk FROM episodes e WHERE ${ITEM_FILTER_SQL}`).all({ collection: 3, ...filterArgs(filter) });
 */
export const ITEM_FILTER_SQL = `e.item_pk IN (SELECT pk FROM items WHERE ${ITEM_MATCH_SQL})`;

/**
 * The named parameters of {@link ITEM_MATCH_SQL} and {@link ITEM_FILTER_SQL}.
 * @example
 * filterArgs({ type: 'image', after: null, before: null, folderPk: 2 }); // { f_type: 'image', …, f_folder: 2 }
 */
export const filterArgs = (f: ItemFilter) => {
  const point = f.near?.kind === 'point' ? f.near : null;
  const area = f.near?.kind === 'area' ? f.near : null;
  return {
    f_type: f.type, f_after: f.after, f_before: f.before, f_folder: f.folderPk,
    // The latitude band first (cheap), then the exact distance (12742 = Earth's diameter in km).
    f_lat: point?.latitude ?? null, f_lon: point?.longitude ?? null, f_km: point?.km ?? null, f_dlat: point ? point.km / KM_PER_DEGREE : null,
    f_country: area?.country_code ?? null, f_region: area?.region ?? null,
  };
};
