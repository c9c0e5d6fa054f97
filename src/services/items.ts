import { msg } from '../messages/index.js';
import type { Repos } from '../store/index.js';
import type { NearFilter } from '../store/item-filter.js';
import type { CaptureSource, ItemRow, ItemSort, PlaceCount } from '../store/items.js';
import { inTransaction } from '../store/connection.js';
import { ownsOrAdmin, type Caller } from './caller.js';
import { nowIso } from './timestamps.js';
import type { CollectionService, Lookup } from './collections.js';
import { notFound, Problem } from './errors.js';
import type { FileLinks } from './file-links.js';
import type { Place } from './places.js';
import { pictureLink } from './shown-pictures.js';

/** A media item as the API shows it (SPEC 2.3), the full field set in lists and single views alike. */
export interface ItemView {
  type: 'video' | 'audio' | 'image';
  media_id: string;
  thumbnail_url: string | null;
  src: string | null;
  /** vidx extra: a photo as every browser shows it (see shownPicturePath); null for video and audio. */
  picture_url: string | null;
  additional_metadata: Record<string, unknown> | null;
  title: string | null;
  duration: number | null;
  /** vidx extras: when and where the media was recorded (see docs/folders.md). */
  captured_at: string | null;
  captured_at_source: CaptureSource | null;
  latitude: number | null;
  longitude: number | null;
  /** vidx extra: the place at latitude/longitude, named offline (see docs/places.md); null without GPS. */
  place: Place | null;
  /** vidx extra: bytes of the media file when it was indexed, null when unknown. */
  size: number | null;
  /** vidx extra, for the owner and admins only: where a folder item lies inside its folder (`trips/beach.mp4`). */
  folder_path?: string | null;
}

/** What an owner may change of an item by hand (`PATCH …/items/{media_id}`). */
export interface ItemEdit {
  title?: string | null;
  additional_metadata?: Record<string, unknown> | null;
}

/** Runs inside the item delete transaction, for rows no foreign key reaches. */
export type ItemCleanup = (item: ItemRow) => void;

/**
 * Media items of a collection: paging, reading, deleting with everything stored for them.
 * @example
 * items.list(caller, 'trips', { limit: 10, offset: null });
 */
export class ItemService {
  private readonly cleanups: ItemCleanup[] = [];

  constructor(
    private readonly store: Repos<'db' | 'items' | 'search' | 'storage'>,
    private readonly collections: CollectionService,
    private readonly links: FileLinks,
    /** Turns a `near` value into a filter (see PlaceService.nearFilter); without it `near` is refused. */
    private readonly nearFilter: ((near: string, km?: number) => Promise<NearFilter>) | null = null,
  ) {}

  private readonly editHooks: ((collectionPk: number, itemPk: number) => void)[] = [];

  onDelete(cleanup: ItemCleanup): void {
    this.cleanups.push(cleanup);
  }

  /** Runs inside an edit's transaction, for what is built from the title and metadata (the text index). */
  onEdit(hook: (collectionPk: number, itemPk: number) => void): void {
    this.editHooks.push(hook);
  }

  /**
   * One page; `offset` is what the previous page returned, null when there are no more. In the SPEC's order
   * (added, oldest first) it is the cursor UUID; in the other orders (name, capture date, duration, or
   * newest first, one type only, or near a place) a position. `total` counts the items the listing covers.
   */
  async list(
    caller: Caller,
    collectionId: string,
    opts: Lookup & { limit: number; offset: string | null; sort?: ItemSort; order?: 'asc' | 'desc'; type?: ItemRow['type']; near?: string; near_km?: number; captured_after?: string; captured_before?: string },
  ): Promise<{ items: ItemView[]; offset: string | null; total: number }> {
    this.collections.readable(caller, collectionId, opts);
    const near = opts.near !== undefined ? await this.near(opts.near, opts.near_km) : null;
    // Read again after the wait: the collection may have gone meanwhile.
    const collection = this.collections.readable(caller, collectionId, opts);
    const owner = ownsOrAdmin(caller, collection.owner);
    const sort = opts.sort ?? 'added';
    const order = opts.order ?? (sort === 'captured' || sort === 'duration' ? 'desc' : 'asc');
    const span = opts.captured_after || opts.captured_before ? { after: opts.captured_after ?? null, before: opts.captured_before ?? null } : null;
    const total = this.store.items.count(collection.pk, opts.type ?? null, near, span);
    if (sort === 'added' && order === 'asc' && !opts.type && !near && !span) {
      const rows = this.store.items.page(collection.pk, opts.offset, opts.limit + 1);
      const more = rows.length > opts.limit;
      const page = more ? rows.slice(0, opts.limit) : rows;
      return { items: page.map((r) => this.view(r, owner)), offset: more ? page[page.length - 1].cursor : null, total };
    }
    const at = Number(opts.offset ?? 0);
    const rows = this.store.items.sorted(collection.pk, { sort, order, type: opts.type ?? null, near, span, offset: at, limit: opts.limit + 1 });
    const more = rows.length > opts.limit;
    return { items: rows.slice(0, opts.limit).map((r) => this.view(r, owner)), offset: more ? String(at + opts.limit) : null, total };
  }

  /**
   * The places the collection's items were recorded at, most items first (GET /collections/{id}/places).
   * @example
   * items.places(caller, 'trips'); // [{ city: 'Lisbon', region: 'Lisbon', country: 'Portugal', country_code: 'PT', items: 12, … }]
   */
  places(caller: Caller, collectionId: string, opts: Lookup = {}): PlaceCount[] {
    return this.store.items.places(this.collections.readable(caller, collectionId, opts).pk);
  }

  private near(near: string, km: number | undefined): Promise<NearFilter> {
    if (!this.nearFilter) throw new Problem('unsupported', msg('near_unsupported'));
    return this.nearFilter(near, km);
  }

  get(caller: Caller, collectionId: string, mediaId: string, opts: Lookup = {}): ItemView {
    const collection = this.collections.readable(caller, collectionId, opts);
    const row = this.store.items.find(collection.pk, mediaId);
    if (!row) throw notFound('media item', mediaId);
    return this.view(row, ownsOrAdmin(caller, collection.owner));
  }

  /**
   * Changes an item's title or metadata (the owner or an admin); the change is marked so that rescans and
   * re-index keep it, and the item's searchable text follows at once.
   */
  edit(caller: Caller, collectionId: string, mediaId: string, patch: ItemEdit): ItemView {
    const collection = this.collections.writable(caller, collectionId);
    const row = this.store.items.find(collection.pk, mediaId);
    if (!row) throw notFound('media item', mediaId);
    inTransaction(this.store.db, () => {
      this.store.items.edit(row.pk, {
        ...(patch.title !== undefined ? { title: patch.title } : {}),
        ...(patch.additional_metadata !== undefined ? { additional_metadata: patch.additional_metadata ? JSON.stringify(patch.additional_metadata) : null } : {}),
      }, nowIso());
      for (const hook of this.editHooks) hook(collection.pk, row.pk);
    });
    return this.view(this.store.items.find(collection.pk, mediaId)!, true);
  }

  /** The stored row if the caller may read it. */
  row(caller: Caller, collectionId: string, mediaId: string, opts: Lookup = {}): ItemRow {
    const collection = this.collections.readable(caller, collectionId, opts);
    const row = this.store.items.find(collection.pk, mediaId);
    if (!row) throw notFound('media item', mediaId);
    return row;
  }

  delete(caller: Caller, collectionId: string, mediaId: string): { collection_id: string; media_id: string } {
    const collection = this.collections.writable(caller, collectionId);
    if (!this.remove(collection.pk, mediaId)) throw notFound('media item', mediaId);
    return { collection_id: collectionId, media_id: mediaId };
  }

  /** Removes an item with its index rows and files, for callers that already checked access (folder scans); false when absent. */
  remove(collectionPk: number, mediaId: string): boolean {
    const row = this.store.items.find(collectionPk, mediaId);
    if (!row) return false;
    inTransaction(this.store.db, () => {
      for (const cleanup of this.cleanups) cleanup(row);
      this.store.items.delete(row.pk);
    });
    this.store.storage.removeItem(collectionPk, mediaId);
    return true;
  }

  /**
   * The API view; `src` is the source URL, else a signed link to the stored media file (as search results
   * give). `owner`: the caller owns the collection (or is an admin) and sees where a folder item lies.
   */
  view(row: ItemRow, owner = false): ItemView {
    const stored = row.src ? null : this.store.search.analysisOf(row.pk)?.stored_file;
    const src = row.src ?? (stored ? this.links.file(stored) : null);
    return {
      type: row.type,
      media_id: row.media_id,
      thumbnail_url: row.thumbnail ? this.links.file(row.thumbnail) : null,
      src,
      picture_url: row.type !== 'image' ? null : pictureLink(stored, src, (p) => this.links.file(p)),
      additional_metadata: row.additional_metadata ? (JSON.parse(row.additional_metadata) as Record<string, unknown>) : null,
      title: row.title,
      duration: row.duration,
      captured_at: row.captured_at,
      captured_at_source: row.captured_at_source,
      latitude: row.latitude,
      longitude: row.longitude,
      place: row.place ? (JSON.parse(row.place) as Place) : null,
      size: row.size,
      ...(owner && row.folder_pk !== null ? { folder_path: this.store.items.folderPath(row.pk) } : {}),
    };
  }
}
