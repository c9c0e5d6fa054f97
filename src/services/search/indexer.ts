import { msg } from '../../messages/index.js';
import type { Repos } from '../../store/index.js';
import type { PrintIndex } from './print-index.js';
import type { ItemRow } from '../../store/items.js';
import { inLightTransaction, inTransaction } from '../../store/connection.js';
import { v7 as uuid7 } from 'uuid';
import { boundedAnalysis } from '../../analysis/limits.js';
import type { MediaAnalysis } from '../../analysis/types.js';
import { nowIso } from '../timestamps.js';
import type { Logger } from '../../logger.js';
import { Problem } from '../errors.js';
import { collectionDeleted } from '../task-engine.js';
import { runAll, runInSlices, TimeSlices } from '../../tools/time-slices.js';
import { textLanguage } from './stems.js';
import { describedBy, prepareItemSteps, storedOthers, storedText, tablesText, type PreparedItem } from './item-rows.js';
import { indexRowSteps, writeCostMs } from './item-writes.js';

/**
 * The media item fields indexing writes to the items row (SPEC 2.3): the row's own fields, metadata as an
 * object, the capture and folder fields optional, plus where the media file is kept.
 */
export type IndexedItem = Pick<ItemRow, 'media_id' | 'type' | 'title' | 'src' | 'thumbnail' | 'duration'> &
  Partial<Pick<ItemRow, 'captured_at' | 'captured_at_source' | 'latitude' | 'longitude' | 'place' | 'place_words' | 'folder_pk' | 'size'>> & {
    additional_metadata: Record<string, unknown> | null;
    /** The media file kept under the data dir (relative path), served by signed `/files/` links. */
    storedFile?: string | null;
  };

/** What storeItem wrote. */
export interface StoredItem {
  item: ItemRow;
  episodes: number;
  vectors: number;
  /** An earlier version of the item was replaced. */
  replaced: boolean;
}

/** How an item is stored: replacing an existing one of its media_id or not, and more writes that commit with it. */
export interface StoreOptions {
  replace: boolean;
  /** More writes that commit or roll back with the item's (its face tracks). */
  alsoWrite?: (item: ItemRow) => void;
}

/** How a SearchIndex writes large items. */
export interface SliceOptions {
  /**
   * Items whose rows take about this long to write (ms) or less are written in one transaction; larger ones
   * are staged (written in slices, shown by a last short transaction). Tests set 0 to stage every item.
   */
  oneTransactionMs?: number;
  /** Told after each slice of a staged write (tests hold a write there to look at what readers see). */
  afterSlice?: () => Promise<void> | void;
}

/** Up to this long (ms) an item's rows are written in one transaction; a larger one is staged. */
const ONE_TRANSACTION_MS = 8;

/** About the bytes one slice of a staged write writes: its commit (and a checkpoint after it) writes them out. */
const SLICE_BYTES = 512 * 1024;

/** Rows a staged item's removal deletes per statement. */
const DROP_ROWS = 200;

/** Episodes removed per transaction when a collection is deleted: a few milliseconds of write lock each. */
const DELETE_BATCH = 100;

/** Episodes read per page while rebuilding a collection's text tables. */
const REBUILD_PAGE = 1000;

/** How often a rebuild says how far it is (a million episodes take minutes). */
const REBUILD_PROGRESS_MS = 10_000;

/** How a text rebuild reads and reports: episodes per page, and how often it says how far it is. */
export interface RebuildPace {
  progressEveryMs?: number;
  pageSize?: number;
}

/**
 * Writes analysed media into the search index: the items row, the item's analysis, episodes, segments,
 * the FTS tables and the vectors, so that a search sees the whole item or none of it. A small item is
 * written in one transaction. A large one (a delivery of hours of text) would hold the request thread and
 * the write lock for seconds that way, so it is staged (`storeItemInSlices`): its rows are written in
 * transactions of about 10 ms each, with requests let in between, under an item row in a hidden
 * collection whose rows every read leaves out (store/staging.ts), and a last short transaction moves it
 * into its collection (and a replaced version out, to be removed in slices afterwards). A write cut short
 * leaves a staged item that nothing shows; the next start removes it. Also the delete hooks that remove
 * FTS rows and vectors (which no foreign key reaches).
 * @example
 * const index = new SearchIndex(store);
 * await index.storeItemInSlices(collection.pk, { media_id: 'clip', type: 'video', title: 'Match', src: null, thumbnail: null,
 *   duration: 90, additional_metadata: null }, analysis, { replace: false });
 */
export class SearchIndex {
  private readonly storedListeners: Array<(collectionPk: number, itemPk: number) => void> = [];
  private readonly drops = new Set<Promise<void>>();
  private stopped = false;

  constructor(
    private readonly store: Repos<'collections' | 'db' | 'items' | 'prints' | 'search' | 'staging' | 'subtitles' | 'text'>,
    /** The in-memory prints of image search, told when a collection's items change. */
    private readonly printIndex?: PrintIndex,
    private readonly slicing: SliceOptions = {},
    private readonly log: Logger = () => {},
  ) {}

  /** Told after an item was stored and committed (duplicates are looked for then). */
  afterStore(listener: (collectionPk: number, itemPk: number) => void): void {
    this.storedListeners.push(listener);
  }

  /**
   * Stores one analysed item in one transaction, at once. With `replace`, an existing item of that
   * media_id is removed with all its index rows in the same transaction (its list position and created
   * time are kept); without, an existing item is a conflict. For small items and callers that cannot wait;
   * tasks use storeItemInSlices.
   */
  storeItem(collectionPk: number, incoming: IndexedItem, given: MediaAnalysis, opts: StoreOptions): StoredItem {
    // What is stored is what a search may read back: bounded, whoever made the analysis (a worker too).
    const analysis = boundedAnalysis(given);
    const { item, before, title, metadata } = this.itemOf(collectionPk, incoming, analysis, opts);
    const prepared = runAll(prepareItemSteps(analysis, title, metadata));
    return this.stored(collectionPk, this.writeItem(collectionPk, item, analysis, opts, prepared, before));
  }

  /**
   * Stores one analysed item as storeItem does, with the request thread let go every few milliseconds: its
   * rows are prepared in slices, then written in one short transaction when small, else staged (see the
   * class). A search sees the whole item or none of it either way.
   */
  async storeItemInSlices(collectionPk: number, incoming: IndexedItem, given: MediaAnalysis, opts: StoreOptions): Promise<StoredItem> {
    const analysis = boundedAnalysis(given);
    const slices = new TimeSlices();
    const { item, before, title, metadata } = this.itemOf(collectionPk, incoming, analysis, opts);
    const prepared = await runInSlices(prepareItemSteps(analysis, title, metadata), slices);
    await slices.pause();
    if (writeCostMs(prepared, analysis) <= (this.slicing.oneTransactionMs ?? ONE_TRANSACTION_MS)) {
      return this.stored(collectionPk, this.writeItem(collectionPk, item, analysis, opts, prepared, before));
    }
    return this.stored(collectionPk, await this.writeStaged(collectionPk, item, analysis, opts, prepared, before));
  }

  /** Resolves once no removal of a replaced (or left) staged item is running. */
  async idle(): Promise<void> {
    while (this.drops.size > 0) await Promise.all([...this.drops]);
  }

  /** Stops the removals after their current slice (the server stops; the next start goes on with them). */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.idle();
  }

  /** At start: removes, in slices and in the background, the staged items a stop or crash left. */
  dropLeftovers(): void {
    for (const row of this.store.staging.all()) this.dropInBackground(row.item_pk);
  }

  /** The item row's fields: what the owner set by hand outlives a re-index; the searchable title and metadata. */
  private itemOf(collectionPk: number, incoming: IndexedItem, analysis: MediaAnalysis, opts: StoreOptions): { item: IndexedItem; before: ItemRow | undefined; title: string; metadata: string } {
    // What the owner set by hand (PATCH …/items/{id}) outlives a re-index: a rescan or reindex keeps it.
    const before = opts.replace ? this.store.items.find(collectionPk, incoming.media_id) : undefined;
    const item: IndexedItem = {
      ...incoming,
      ...(before?.title_edited ? { title: before.title } : {}),
      ...(before?.metadata_edited ? { additional_metadata: before.additional_metadata ? (JSON.parse(before.additional_metadata) as Record<string, unknown>) : null } : {}),
    };
    return { item, before, title: item.title ?? analysis.title ?? '', metadata: describedBy(item.additional_metadata, item.place_words) };
  }

  /** After a commit: image search forgets the collection's prints, and the listeners are told. */
  private stored(collectionPk: number, stored: StoredItem): StoredItem {
    this.printIndex?.invalidate(collectionPk);
    for (const listener of this.storedListeners) listener(collectionPk, stored.item.pk);
    return stored;
  }

  /** The item row as indexing writes it (`cursor` and `created` kept from a replaced version). */
  private itemRow(collectionPk: number, item: IndexedItem, analysis: MediaAnalysis, before: ItemRow | undefined, at: string) {
    return {
      cursor: uuid7(),
      collection_pk: collectionPk,
      media_id: item.media_id,
      type: item.type,
      title: item.title,
      src: item.src,
      thumbnail: item.thumbnail,
      duration: item.duration ?? analysis.duration,
      additional_metadata: item.additional_metadata ? JSON.stringify(item.additional_metadata) : null,
      created_at: at,
      updated_at: at,
      captured_at: item.captured_at ?? null,
      captured_at_source: item.captured_at_source ?? null,
      latitude: item.latitude ?? null,
      longitude: item.longitude ?? null,
      place: item.place ?? null,
      place_words: item.place_words ?? null,
      folder_pk: item.folder_pk ?? null,
      title_edited: before?.title_edited ?? 0,
      metadata_edited: before?.metadata_edited ?? 0,
      size: item.size ?? null,
      width: analysis.width ?? null,
      height: analysis.height ?? null,
    };
  }

  /** The item's analysis row. */
  private analysisRow(itemPk: number, item: IndexedItem, analysis: MediaAnalysis, at: string) {
    return {
      item_pk: itemPk,
      summary: analysis.summary,
      duration: analysis.duration,
      language: analysis.language,
      transcript_source: analysis.transcriptSource,
      stored_file: item.storedFile ?? null,
      warnings: JSON.stringify(analysis.warnings),
      indexed_at: at,
      // The face stage ran (faces may be empty); null means it did not look.
      faces_scanned: analysis.faces ? 1 : 0,
      // An analysis from before every track was kept says nothing: null reads as its transcript's language alone.
      subtitle_languages: analysis.subtitleLanguages ? JSON.stringify(analysis.subtitleLanguages) : null,
      speakers: analysis.speakers ? JSON.stringify(analysis.speakers) : null,
      speakers_model: analysis.speakersModel ?? null,
    };
  }

  /** A small item in one write transaction: an existing version removed, the new one written. */
  private writeItem(collectionPk: number, item: IndexedItem, analysis: MediaAnalysis, opts: StoreOptions, prepared: PreparedItem, before: ItemRow | undefined): StoredItem {
    const at = nowIso();
    return inTransaction(this.store.db, () => {
      const existing = this.store.items.find(collectionPk, item.media_id);
      if (existing && !opts.replace) throw new Problem('conflict', msg('media_item_exists', { id: item.media_id }));
      if (existing) {
        this.store.search.deleteItem(existing.pk);
        this.store.items.delete(existing.pk);
      }
      const fields = this.itemRow(collectionPk, item, analysis, before, at);
      const row = this.store.items.insert({ ...fields, cursor: existing?.cursor ?? fields.cursor, created_at: existing?.created_at ?? at, folder_pk: item.folder_pk ?? existing?.folder_pk ?? null });
      this.store.search.insertAnalysis(this.analysisRow(row.pk, item, analysis, at));
      const { vectors } = runAll(indexRowSteps(this.store, { itemPk: row.pk, collectionPk, episodesIn: collectionPk, at }, analysis, prepared));
      opts.alsoWrite?.(row);
      return { item: row, episodes: prepared.episodes.length, vectors, replaced: existing !== undefined };
    });
  }

  /**
   * A large item, staged: its row in the hidden collection, its rows slice by slice (each slice a
   * transaction of about 10 ms, requests let in between), then one short transaction that shows it (and
   * hides a replaced version, removed afterwards in the background). Anything failing on the way removes
   * what was staged.
   */
  private async writeStaged(collectionPk: number, item: IndexedItem, analysis: MediaAnalysis, opts: StoreOptions, prepared: PreparedItem, before: ItemRow | undefined): Promise<StoredItem> {
    const db = this.store.db;
    const staging = this.store.staging;
    const slices = new TimeSlices();
    const at = nowIso();
    const fields = this.itemRow(collectionPk, item, analysis, before, at);
    const staged = inTransaction(db, () => {
      const hidden = staging.collection();
      const row = this.store.items.insert({ ...fields, collection_pk: hidden, media_id: `~staged-${fields.cursor}`, folder_pk: null });
      this.store.search.insertAnalysis(this.analysisRow(row.pk, item, analysis, at));
      staging.mark(row.pk, collectionPk, 'storing', at);
      return { row, hidden };
    });
    try {
      const steps = indexRowSteps(this.store, { itemPk: staged.row.pk, collectionPk, episodesIn: staged.hidden, at }, analysis, prepared);
      let vectors = 0;
      for (let done = false; !done; ) {
        await slices.yield();
        // A slice ends when its time is spent or it wrote about SLICE_BYTES (what its commit writes out).
        let bytes = 0;
        inLightTransaction(db, () => {
          do {
            const r = steps.next();
            if (r.done) {
              vectors = r.value.vectors;
              done = true;
            } else bytes += r.value;
          } while (!done && !slices.spent && bytes < SLICE_BYTES);
        });
        await this.slicing.afterSlice?.();
      }
      await slices.yield();
      const { row, existing } = inTransaction(db, () => this.show(collectionPk, item, staged.row, opts, at));
      if (existing) this.dropInBackground(existing.pk);
      return { item: row, episodes: prepared.episodes.length, vectors, replaced: existing !== undefined };
    } catch (err) {
      await this.dropStaged(staged.row.pk).catch(() => {});
      throw err;
    }
  }

  /**
   * The last transaction of a staged write: the collection still there, the media id free (or replaced),
   * a replaced version hidden, the staged item shown in its place, and the writes that commit with it.
   */
  private show(collectionPk: number, item: IndexedItem, staged: ItemRow, opts: StoreOptions, at: string): { row: ItemRow; existing: ItemRow | undefined } {
    if (!this.store.collections.findLiveByPk(collectionPk)) throw collectionDeleted();
    const existing = this.store.items.find(collectionPk, item.media_id);
    if (existing && !opts.replace) throw new Problem('conflict', msg('media_item_exists', { id: item.media_id }));
    if (existing) this.store.staging.hide(existing.pk, collectionPk, at);
    const shown = { media_id: item.media_id, cursor: existing?.cursor ?? staged.cursor, folder_pk: item.folder_pk ?? existing?.folder_pk ?? null, created_at: existing?.created_at ?? at };
    this.store.staging.show(staged.pk, collectionPk, shown);
    const row: ItemRow = { ...staged, ...shown, collection_pk: collectionPk };
    opts.alsoWrite?.(row);
    return { row, existing };
  }

  /** Removes a staged item in the background (errors are logged; the next start tries again). */
  private dropInBackground(itemPk: number): void {
    const p: Promise<void> = this.dropStaged(itemPk)
      .catch((err: unknown) => {
        if (this.store.db.open) this.log('removing a staged item failed; the next start tries again', { item_pk: itemPk, error: (err as Error).message });
      })
      .finally(() => this.drops.delete(p));
    this.drops.add(p);
  }

  /** Removes a staged item (being stored, or replaced) and its rows, in slices of short transactions. */
  private async dropStaged(itemPk: number): Promise<void> {
    const row = this.store.staging.get(itemPk);
    if (!row) return;
    const slices = new TimeSlices();
    for (let more = true; more && !this.stopped && this.store.db.open; ) {
      await slices.yield();
      inLightTransaction(this.store.db, () => {
        do more = this.store.search.dropSome(itemPk, row.collection_pk, DROP_ROWS);
        while (more && !slices.spent);
      });
    }
    if (!this.stopped) this.printIndex?.invalidate(row.collection_pk);
  }

  /**
   * Fills the text tables of collections whose text waits for a rebuild (after a migration that changed
   * them) from the stored items, episodes and segments. One transaction per collection: a crash leaves the
   * collection marked and the next start rebuilds it again. Runs at start, before the server answers, so
   * it says what it does: once at the start (how many episodes), every `progressEveryMs` within a
   * collection (how far), and when each collection is done. Returns the number of episodes rebuilt.
   * @example
   * searchIndex.rebuildText(log); // logs "rebuilding the text index: 1000000 episodes in 1 collection(s) …"
   */
  rebuildText(log: Logger = () => {}, opts: RebuildPace = {}): number {
    const repo = this.store.text;
    const pending = repo.pendingRebuilds().map((pk) => ({ pk, episodes: repo.storedTextCount(pk) }));
    if (pending.length === 0) return 0;
    const episodes = pending.reduce((sum, c) => sum + c.episodes, 0);
    log(`rebuilding the text index: ${episodes} episodes in ${pending.length} collection(s) (after an upgrade, or a rebuild cut short); the server answers once it is done`, { collections: pending.length, episodes });
    let total = 0;
    for (const c of pending) {
      const t0 = Date.now();
      const n = inTransaction(this.store.db, () => this.rebuildCollection(c, log, { progressEveryMs: REBUILD_PROGRESS_MS, pageSize: REBUILD_PAGE, ...opts }));
      total += n;
      const ms = Date.now() - t0;
      log(`rebuilt the text index of collection ${c.pk}: ${n} episodes in ${ms} ms`, { collection_pk: c.pk, episodes: n, ms });
    }
    return total;
  }

  /** One collection's rebuild, in the caller's transaction, with a progress line every `progressEveryMs`. */
  private rebuildCollection(c: { pk: number; episodes: number }, log: Logger, pace: Required<RebuildPace>): number {
    const repo = this.store.text;
    repo.startRebuild(c.pk);
    let count = 0;
    let said = Date.now();
    for (let after = 0; ; ) {
      const page = repo.storedTexts(c.pk, after, pace.pageSize);
      if (page.length === 0) break;
      for (const r of page) {
        const { text, words } = tablesText(storedText(r), textLanguage(r.language), storedOthers(r));
        repo.insertRebuilt(c.pk, r.pk, text, words);
      }
      count += page.length;
      after = page[page.length - 1].pk;
      if (Date.now() - said >= pace.progressEveryMs && count < c.episodes) {
        said = Date.now();
        const percent = Math.floor((100 * count) / Math.max(c.episodes, 1));
        log(`rebuilding the text index of collection ${c.pk}: ${count} of ${c.episodes} episodes (${percent} %)`, { collection_pk: c.pk, done: count, episodes: c.episodes, percent });
      }
    }
    repo.finishRebuild(c.pk);
    return count;
  }

  /**
   * Writes an item's searchable text again from its stored rows (after its title or metadata changed), in
   * the caller's transaction.
   */
  retextItem(collectionPk: number, itemPk: number): void {
    const repo = this.store.text;
    const rows = repo.storedTextsOfItem(itemPk);
    repo.deleteRows(collectionPk, rows.map((r) => r.pk));
    for (const r of rows) {
      const { text, words } = tablesText(storedText(r), textLanguage(r.language), storedOthers(r));
      repo.insertText(collectionPk, r.pk, text, words);
    }
  }

  /** Item delete hook (ItemService.onDelete): runs inside the delete transaction. */
  removeItem(item: ItemRow): void {
    this.printIndex?.invalidate(item.collection_pk);
    this.store.search.deleteItem(item.pk);
  }

  /**
   * Collection delete hook (CollectionService.onDelete): removes one batch of the collection's index rows
   * inside the caller's transaction; true while more remains.
   */
  removeCollection(collectionPk: number): boolean {
    this.printIndex?.invalidate(collectionPk);
    return this.store.search.deleteCollectionSome(collectionPk, DELETE_BATCH) > 0;
  }
}
