import { rmSync } from 'node:fs';
import type { Store } from '../store/index.js';
import type { CaptureSource, ItemRow } from '../store/items.js';
import { inTransaction } from '../store/connection.js';
import type { Caller } from './caller.js';
import type { CollectionService, Lookup } from './collections.js';
import { notFound } from './errors.js';
import type { MediaLinks } from './links.js';
import { itemDir } from './paths.js';

/** A media item as the API shows it (SPEC 2.3), the full field set in lists and single views alike. */
export interface ItemView {
  type: 'video' | 'audio' | 'image';
  media_id: string;
  thumbnail_url: string | null;
  src: string | null;
  additional_metadata: Record<string, unknown> | null;
  title: string | null;
  duration: number | null;
  /** vidx extras: when and where the media was recorded (see docs/folders.md). */
  captured_at: string | null;
  captured_at_source: CaptureSource | null;
  latitude: number | null;
  longitude: number | null;
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
    private readonly store: Store,
    private readonly collections: CollectionService,
    private readonly dataDir: string,
    private readonly links: MediaLinks,
  ) {}

  onDelete(cleanup: ItemCleanup): void {
    this.cleanups.push(cleanup);
  }

  /** One page; `offset` is the cursor the previous page returned, null when there are no more. */
  list(caller: Caller, collectionId: string, opts: Lookup & { limit: number; offset: string | null }): { items: ItemView[]; offset: string | null } {
    const collection = this.collections.readable(caller, collectionId, opts);
    const rows = this.store.items.page(collection.pk, opts.offset, opts.limit + 1);
    const more = rows.length > opts.limit;
    const page = more ? rows.slice(0, opts.limit) : rows;
    return { items: page.map((r) => this.view(r)), offset: more ? page[page.length - 1].cursor : null };
  }

  get(caller: Caller, collectionId: string, mediaId: string, opts: Lookup = {}): ItemView {
    return this.view(this.row(caller, collectionId, mediaId, opts));
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
    rmSync(itemDir(this.dataDir, collectionPk, mediaId), { recursive: true, force: true });
    return true;
  }

  /** The API view; `src` is the source URL, else a signed link to the stored media file (as search results give). */
  view(row: ItemRow): ItemView {
    const stored = row.src ? null : this.store.search.analysisOf(row.pk)?.stored_file;
    return {
      type: row.type,
      media_id: row.media_id,
      thumbnail_url: row.thumbnail ? this.links.file(row.thumbnail) : null,
      src: row.src ?? (stored ? this.links.file(stored) : null),
      additional_metadata: row.additional_metadata ? (JSON.parse(row.additional_metadata) as Record<string, unknown>) : null,
      title: row.title,
      duration: row.duration,
      captured_at: row.captured_at,
      captured_at_source: row.captured_at_source,
      latitude: row.latitude,
      longitude: row.longitude,
    };
  }
}
