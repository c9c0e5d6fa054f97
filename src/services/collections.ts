import type { Repos } from '../store/index.js';
import type { CollectionRow } from '../store/collections.js';
import { inTransaction } from '../store/connection.js';
import { ownsOrAdmin, type Caller } from './caller.js';
import { nowIso } from './timestamps.js';
import { notFound, Problem } from './errors.js';
import type { FileLinks } from './file-links.js';
import { CollectionPurger, type CollectionCleanup } from './collection-purge.js';
import { msg } from '../messages/index.js';

/** A collection as the API shows it (SPEC 2.1). */
export interface CollectionView {
  collection_id: string;
  name: string;
  description: string | null;
  is_public: boolean;
  thumbnails?: string[] | null;
}

/** How a caller asks for a collection: `public: true` also finds other owners' public collections. */
export interface Lookup {
  public?: boolean;
}

const THUMBNAILS_PER_COLLECTION = 4;

/**
 * Collections and who may see or change them.
 * Rules: the owner and admins see a collection; anyone sees a public one when asking with public=true;
 * another owner's private collection is "not found"; only admins make a collection public.
 * @example
 * const c = collections.create(caller, { collection_id: 'trips', name: 'Trips' });
 */
export class CollectionService {
  private readonly purger: CollectionPurger;
  private readonly deletedListeners: ((collectionPk: number) => void)[] = [];

  constructor(
    private readonly store: Repos<'collections' | 'db' | 'items' | 'storage'>,
    private readonly links: FileLinks,
  ) {
    this.purger = new CollectionPurger(store);
  }

  /** Called at once when a collection is deleted (before its background purge), with its internal key. */
  whenDeleted(listener: (collectionPk: number) => void): void {
    this.deletedListeners.push(listener);
  }

  /** Adds a step to collection deletion (for example the search index of a later module). */
  onDelete(cleanup: CollectionCleanup): void {
    this.purger.cleanups.push(cleanup);
  }

  create(caller: Caller, input: { collection_id: string; name: string; description?: string | null; is_public?: boolean }): CollectionView {
    if (input.is_public && caller.role !== 'admin') {
      throw new Problem('forbidden', msg('public_create_admin_only'));
    }
    if (this.store.collections.findById(input.collection_id)) {
      throw new Problem('conflict', msg('collection_exists', { id: input.collection_id }));
    }
    const at = nowIso();
    const row = this.store.collections.insert({
      collection_id: input.collection_id,
      owner: caller.id,
      name: input.name,
      description: input.description ?? null,
      is_public: input.is_public ? 1 : 0,
      created_at: at,
      updated_at: at,
    });
    return this.view(row, null);
  }

  list(caller: Caller, opts: { public?: boolean; thumbnails?: boolean }): CollectionView[] {
    const rows = opts.public ? this.store.collections.listPublic() : this.store.collections.listByOwner(caller.id);
    const thumbs = opts.thumbnails ? this.store.items.thumbnailsOf(rows.map((r) => r.pk), THUMBNAILS_PER_COLLECTION) : null;
    return rows.map((r) => this.view(r, thumbs ? (thumbs.get(r.pk) ?? []) : null));
  }

  get(caller: Caller, collectionId: string, opts: Lookup & { thumbnails?: boolean }): CollectionView {
    const row = this.readable(caller, collectionId, opts);
    return this.view(row, opts.thumbnails ? this.store.items.listThumbnails(row.pk, THUMBNAILS_PER_COLLECTION) : null);
  }

  update(
    caller: Caller,
    collectionId: string,
    patch: { name?: string | null; description?: string | null; is_public?: boolean | null },
  ): CollectionView {
    const row = this.writable(caller, collectionId);
    if (patch.is_public === true && !row.is_public && caller.role !== 'admin') {
      throw new Problem('forbidden', msg('public_make_admin_only'));
    }
    const next = {
      name: patch.name ?? row.name,
      description: patch.description !== undefined ? patch.description : row.description,
      is_public: patch.is_public === null || patch.is_public === undefined ? row.is_public : patch.is_public ? 1 : 0,
      updated_at: nowIso(),
    };
    this.store.collections.update(row.pk, next);
    return this.view({ ...row, ...next }, null);
  }

  /**
   * Deletes a collection: hidden at once (its id free again) and answered; its rows and files are then
   * purged in the background (CollectionPurger), so a collection of 100,000 episodes never stalls the server.
   */
  delete(caller: Caller, collectionId: string): CollectionView {
    const row = this.writable(caller, collectionId);
    const view = this.view(row, null);
    inTransaction(this.store.db, () => this.store.collections.markDeleting(row.pk));
    for (const listener of this.deletedListeners) listener(row.pk);
    this.purger.start(row.pk);
    return view;
  }

  /** Resumes purges a crash or stop cut short (at start) and sets where purge errors are reported. */
  startPurges(onError: (err: unknown) => void): void {
    this.purger.onError = onError;
    for (const pk of this.store.collections.deleting()) this.purger.start(pk);
  }

  /** Resolves when no purge is running (tests, benchmarks). */
  purged(): Promise<void> {
    return this.purger.idle();
  }

  /** Stops purging after the current slice; what is left is resumed at the next start. */
  stopPurges(): Promise<void> {
    return this.purger.stop();
  }

  /** The collection if the caller may read it, else a 404 that does not reveal it exists. */
  readable(caller: Caller, collectionId: string, opts: Lookup = {}): CollectionRow {
    const row = this.store.collections.findById(collectionId);
    if (!row || !(ownsOrAdmin(caller, row.owner) || (opts.public === true && row.is_public === 1))) {
      throw notFound('collection', collectionId);
    }
    return row;
  }

  /** The collection if the caller may change it: 403 on a public one they do not own, 404 otherwise. */
  writable(caller: Caller, collectionId: string): CollectionRow {
    const row = this.store.collections.findById(collectionId);
    if (!row) throw notFound('collection', collectionId);
    if (ownsOrAdmin(caller, row.owner)) return row;
    if (row.is_public) throw new Problem('forbidden', msg('collection_not_yours', { id: collectionId }));
    throw notFound('collection', collectionId);
  }

  /** The API view; `thumbnails` (stored paths) only when they were asked for. */
  private view(row: CollectionRow, thumbnails: string[] | null): CollectionView {
    const view: CollectionView = {
      collection_id: row.collection_id,
      name: row.name,
      description: row.description,
      is_public: row.is_public === 1,
    };
    if (thumbnails) view.thumbnails = thumbnails.map((t) => this.links.file(t)).filter((u): u is string => u !== null);
    return view;
  }
}
