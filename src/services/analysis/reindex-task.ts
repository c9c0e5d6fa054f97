import { randomUUID } from 'node:crypto';
import { linkSync, lstatSync, readlinkSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type { ItemRow } from '../../store/items.js';
import { removeTaskUpload, uploadPath, type IndexTaskData, type StoredVideo, type TaskUpload } from '../submissions.js';
import { collectionDeleted, type TaskContext, type TaskEngine } from '../task-engine.js';
import { describeFailure } from '../task-failure.js';
import { indexMedia, type IndexDeps, type IndexTaskOptions } from './index-task.js';

/** Input of a re-index task: the collection (by id, for display) and the items, or null for all of them. */
export interface ReindexTaskData {
  collection: string;
  media_ids: string[] | null;
}

/** An item a re-index could not analyse again, and why. */
export interface ReindexFailure {
  media_id: string;
  title: string | null;
  reason: string;
  retryable: boolean;
}

/** The result of a completed re-index task. */
export interface ReindexResult {
  collection: string;
  /** Items the task went through. */
  total: number;
  reindexed: number;
  /** Each item that failed, alone: the others were re-indexed. */
  failed: ReindexFailure[];
}

/** Where an item is analysed again from, or why it cannot be. */
type ItemSource = { video: Pick<StoredVideo, 'path' | 'url' | 'content'>; upload: TaskUpload | null } | { gone: string };

/**
 * The item's source as it was kept: the file a kept link leads to (path-indexed media), a kept copy
 * (uploads, linked into the uploads folder as a new upload), or its URL.
 */
function sourceOf(item: ItemRow, storedFile: string | null, opts: IndexTaskOptions): ItemSource {
  if (storedFile) {
    const kept = join(opts.dataDir, storedFile);
    const st = (() => {
      try {
        return lstatSync(kept);
      } catch {
        return null;
      }
    })();
    if (st?.isSymbolicLink()) return { video: { path: resolve(join(kept, '..'), readlinkSync(kept)), url: null, content: null }, upload: null };
    if (st?.isFile()) {
      // A hard link costs nothing and leaves the kept copy in place until the new version is stored.
      const stored = `${randomUUID()}.upload`;
      linkSync(kept, uploadPath(opts.uploadsDir, { stored, filename: basename(kept), size: 0 }));
      return { video: { path: null, url: null, content: basename(kept) }, upload: { stored, filename: basename(kept), size: statSync(kept).size } };
    }
  }
  if (item.src) return { video: { path: null, url: item.src, content: null }, upload: null };
  return { gone: 'its source was not kept (the file was neither a path, an upload nor a URL vidx can fetch again)' };
}

/** What re-indexing needs besides the index dependencies. */
export interface ReindexDeps extends IndexDeps {
  options: IndexTaskOptions;
}

async function reindexOne(deps: ReindexDeps, ctx: TaskContext<ReindexTaskData>, item: ItemRow, progress: (f: number, stage: string) => void): Promise<void> {
  const analysisRow = deps.store.search.analysisOf(item.pk);
  const source = sourceOf(item, analysisRow?.stored_file ?? null, deps.options);
  if ('gone' in source) throw new Error(source.gone);
  const data: IndexTaskData = {
    video: {
      ...source.video,
      media_id: item.media_id,
      // The item keeps its name and metadata (renamed ones stay renamed: the index keeps edits).
      title: item.title,
      additional_metadata: item.additional_metadata ? (JSON.parse(item.additional_metadata) as Record<string, unknown>) : null,
      // A copy knows no file date of its own: the one the item had goes along.
      ...(source.upload && item.captured_at_source === 'file' && item.captured_at ? { file_modified_at: item.captured_at } : {}),
    },
    collection: ctx.data.collection,
    index_language: analysisRow?.language === 'de' ? 'de' : 'en',
    reindex_if_exists: true,
    upload: source.upload,
  };
  try {
    await indexMedia(deps, deps.options, data, { ...ctx, progress }, { folderPk: item.folder_pk });
  } finally {
    removeTaskUpload(data, deps.store.storage);
  }
}

/**
 * Registers the re-index task: the listed items of a collection (or all of them) are analysed again from
 * their sources, one after the other, keeping media_id, title, metadata and people's names; progress per
 * item. An item whose source is gone fails alone, with its reason, and the task goes on.
 * @example
 * registerReindexTask(engine, { analyzer, store, searchIndex, options: { dataDir, uploadsDir } });
 */
export function registerReindexTask(engine: TaskEngine, deps: ReindexDeps): void {
  engine.register<ReindexTaskData>('reindex', async (ctx): Promise<ReindexResult> => {
    const collection = ctx.collectionPk === null ? undefined : deps.store.collections.findLiveByPk(ctx.collectionPk);
    if (!collection) throw collectionDeleted();
    const ids = ctx.data.media_ids ?? deps.store.items.listForCollection(collection.pk).map((i) => i.media_id);
    const result: ReindexResult = { collection: ctx.data.collection, total: ids.length, reindexed: 0, failed: [] };
    for (const [n, id] of ids.entries()) {
      ctx.signal.throwIfAborted();
      const item = deps.store.items.find(collection.pk, id);
      const name = item?.title ?? id;
      const progress = (f: number, stage: string) => ctx.progress((n + f) / ids.length, stage, { n: n + 1, total: ids.length, name });
      try {
        if (!item) throw new Error(`${id} is no longer in the collection`);
        await reindexOne(deps, ctx, item, progress);
        result.reindexed++;
      } catch (e) {
        if (ctx.signal.aborted) throw e;
        const failure = describeFailure(e);
        result.failed.push({ media_id: id, title: item?.title ?? null, reason: failure.message, retryable: failure.retryable });
      }
    }
    return result;
  });
}
