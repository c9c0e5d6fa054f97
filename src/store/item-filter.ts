/**
 * The vidx-extra search filters (media type, capture time, folder) as SQL over episodes, shared by the text
 * tables' MATCH queries and the vector hits' post-filter.
 */

/** Restricts a search to some items of the collection (vidx extras of POST /search); null fields do not restrict. */
export interface ItemFilter {
  type: 'video' | 'audio' | 'image' | null;
  /** ISO 8601 UTC bounds on captured_at, inclusive. */
  after: string | null;
  before: string | null;
  folderPk: number | null;
}

/**
 * The SQL condition of an {@link ItemFilter} on episode alias `e` (named parameters @collection, @f_type,
 * @f_after, @f_before, @f_folder).
 * @example
 * db.prepare(`SELECT e.pk FROM episodes e WHERE ${ITEM_FILTER_SQL}`).all({ collection: 3, ...filterArgs(filter) });
 */
export const ITEM_FILTER_SQL = `e.item_pk IN (SELECT pk FROM items WHERE collection_pk = @collection
  AND (@f_type IS NULL OR type = @f_type) AND (@f_after IS NULL OR captured_at >= @f_after)
  AND (@f_before IS NULL OR captured_at <= @f_before) AND (@f_folder IS NULL OR folder_pk = @f_folder))`;

/**
 * The named parameters of {@link ITEM_FILTER_SQL}.
 * @example
 * filterArgs({ type: 'image', after: null, before: null, folderPk: 2 }); // { f_type: 'image', …, f_folder: 2 }
 */
export const filterArgs = (f: ItemFilter) => ({ f_type: f.type, f_after: f.after, f_before: f.before, f_folder: f.folderPk });
