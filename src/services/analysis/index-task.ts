import { copyFileSync, existsSync, mkdirSync, rmSync, symlinkSync, renameSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import type { Store } from '../../store/index.js';
import { collectionDeleted, type TaskEngine } from '../task-engine.js';
import { removeTaskUpload, uploadPath, type IndexTaskData, type StoredVideo } from '../jobs.js';
import { itemDir } from '../paths.js';
import type { IndexedItem, SearchIndex } from '../search/index.js';
import { readCaptureInfo } from '../../media/capture-info.js';
import type { AnalyzedMedia, Analyzer } from './analyzer.js';
import type { MediaAnalysis } from './types.js';
import { storeFaceTracks } from '../people/grouping.js';

/** Where indexing keeps files and reads sources. */
export interface IndexTaskOptions {
  dataDir: string;
  uploadsDir: string;
}

/** The result of a completed /index task. */
export interface IndexResult {
  collection: string;
  media_id: string;
  status: 'indexed' | 'reindexed' | 'skipped';
  reason?: string;
  episodes: number;
  duration: number | null;
  transcript_source: MediaAnalysis['transcriptSource'] | null;
  warnings: string[];
}

/**
 * Keeps the item's media where signed `/files/` links can stream it: an upload is moved in, a local
 * path is linked (no copy of a large archive file); URL sources are played from their URL instead.
 */
function keepMedia(dir: string, data: IndexTaskData, localPath: string | null, uploadsFolder: string): { name: string; undo(): void } | null {
  const upload = data.upload ? uploadPath(uploadsFolder, data.upload) : null;
  if (upload && existsSync(upload)) {
    const name = `media${extname(data.upload!.filename).toLowerCase() || '.bin'}`;
    renameSync(upload, join(dir, name));
    // Put the upload back if storing fails, so a retry of the task still has it.
    return { name, undo: () => renameSync(join(dir, name), upload) };
  }
  if (localPath) {
    const name = `media${extname(localPath).toLowerCase() || '.bin'}`;
    symlinkSync(localPath, join(dir, name));
    return { name, undo: () => {} };
  }
  return null;
}

/** What indexing one media file needs. */
export interface IndexDeps {
  analyzer: Analyzer;
  store: Store;
  searchIndex: SearchIndex;
}

/** Fields of the item that the caller knows and the media does not: the folder a scan found it in. */
export interface IndexExtras {
  folderPk?: number | null;
  /** Reads the capture time and place (a scan passes one that reads each content once). */
  readCapture?: typeof readCaptureInfo;
}

/**
 * The capture time and place of the item: what a local file states, else its file date (`file`); for an
 * upload or a download what its content stated while it was there, else the date of the file where the
 * caller has it (`file_modified_at`, the page's File.lastModified), else nothing. An upload's own file date
 * is when it was copied, never used.
 */
async function captureOf(analyzed: AnalyzedMedia, video: StoredVideo, signal: AbortSignal, read = readCaptureInfo): Promise<Partial<IndexedItem>> {
  const { localPath, analysis, capture } = analyzed;
  if (localPath) {
    const c = await read(localPath, analysis.type, signal);
    return { captured_at: c.capturedAt, captured_at_source: c.source, latitude: c.latitude, longitude: c.longitude };
  }
  const place = { latitude: capture?.latitude ?? null, longitude: capture?.longitude ?? null };
  if (capture?.source && capture.capturedAt) return { captured_at: capture.capturedAt, captured_at_source: 'metadata', ...place };
  if (video.file_modified_at) return { captured_at: new Date(video.file_modified_at).toISOString(), captured_at_source: 'file', ...place };
  return place;
}

/**
 * Indexes one media file into a collection: analyse it (sharing work with /analyze of the same content),
 * then store the item, its episodes, text and vectors in one transaction. An existing media_id is left
 * untouched unless reindex_if_exists is true. The /index task and folder scans both come through here.
 * @example
 * const result = await indexMedia(deps, { dataDir, uploadsDir }, data, ctx);
 */
export async function indexMedia(
  deps: IndexDeps,
  opts: IndexTaskOptions,
  d: IndexTaskData,
  ctx: { id: string; owner: string; collectionPk: number | null; signal: AbortSignal; progress: (fraction: number, stage: string) => void },
  extras: IndexExtras = {},
): Promise<IndexResult> {
  // The collection the task was made for, by its internal key: a new collection that took the id of a
  // deleted one is another collection and receives nothing of this task.
  const collectionOf = () => {
    const c = ctx.collectionPk === null ? undefined : deps.store.collections.findLiveByPk(ctx.collectionPk);
    if (!c) throw collectionDeleted();
    return c;
  };
  const existing = deps.store.items.find(collectionOf().pk, d.video.media_id);
  if (existing && !d.reindex_if_exists) {
    removeTaskUpload(d, opts.uploadsDir);
    return {
      collection: d.collection, media_id: d.video.media_id, status: 'skipped',
      reason: 'media_id already in the collection; nothing was changed (set reindex_if_exists to replace it)',
      episodes: 0, duration: existing.duration, transcript_source: null, warnings: [],
    };
  }
  const faces = deps.store.faces.enabled(collectionOf().pk);
  const analyzed = await deps.analyzer.run(d.video, d.upload, d.index_language, { ...ctx, faces });
  const { analysis, src, localPath } = analyzed;
  ctx.progress(0.99, 'storing');
  const capture = await captureOf(analyzed, d.video, ctx.signal, extras.readCapture);
  const collection = collectionOf();
  const dir = itemDir(opts.dataDir, collection.pk, d.video.media_id);
  // Files go to a fresh folder first, so a failed store leaves the previous version's files intact.
  const staging = `${dir}.incoming-${ctx.id}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  let media: ReturnType<typeof keepMedia> = null;
  try {
    const episodes = analysis.episodes.map((e) => {
      if (!e.thumbnail) return e;
      const name = `ep-${e.index}.jpg`;
      copyFileSync(join(opts.dataDir, e.thumbnail), join(staging, name));
      return { ...e, thumbnail: relative(opts.dataDir, join(dir, name)) };
    });
    // The setting may have been turned off while the item was analysed: then nothing about faces is kept.
    const keepFaces = Boolean(analysis.faces) && deps.store.faces.enabled(collection.pk);
    const faceThumbs = (analysis.faces ?? []).map((f, i) => {
      if (!f.thumbnail) return null;
      const from = join(opts.dataDir, f.thumbnail);
      if (keepFaces) copyFileSync(from, join(staging, `face-${i}.jpg`));
      rmSync(from, { force: true });
      return relative(opts.dataDir, join(dir, `face-${i}.jpg`));
    });
    media = keepMedia(staging, d, localPath, opts.uploadsDir);
    const stored = { ...analysis, episodes };
    const result = deps.searchIndex.storeItem(
      collection.pk,
      {
        media_id: d.video.media_id,
        type: analysis.type,
        // The caller's title, else the file's or page's name, else what the container calls itself.
        title: d.video.title ?? analyzed.sourceName ?? analysis.title,
        size: analyzed.size,
        src,
        thumbnail: episodes[0]?.thumbnail ?? null,
        duration: analysis.duration,
        additional_metadata: d.video.additional_metadata,
        storedFile: media ? relative(opts.dataDir, join(dir, media.name)) : null,
        folder_pk: extras.folderPk ?? null,
        ...capture,
      },
      stored,
      { replace: d.reindex_if_exists },
    );
    if (keepFaces) {
      deps.store.db.transaction(() => storeFaceTracks(deps.store.faces, collection.pk, result.item.pk, analysis.faces ?? [], faceThumbs, analysis.facesSamePerson ?? undefined))();
    }
    rmSync(dir, { recursive: true, force: true });
    renameSync(staging, dir);
    return {
      collection: d.collection, media_id: d.video.media_id, status: result.replaced ? 'reindexed' : 'indexed',
      episodes: result.episodes, duration: analysis.duration, transcript_source: analysis.transcriptSource, warnings: analysis.warnings,
    };
  } catch (err) {
    media?.undo();
    rmSync(staging, { recursive: true, force: true });
    throw err;
  }
}

/**
 * Registers the /index task (see {@link indexMedia}).
 * @example
 * registerIndexTask(engine, { analyzer, store, searchIndex }, { dataDir, uploadsDir });
 */
export function registerIndexTask(engine: TaskEngine, deps: IndexDeps, opts: IndexTaskOptions): void {
  engine.register<IndexTaskData>('index', (ctx): Promise<IndexResult> => indexMedia(deps, opts, ctx.data, ctx));
}
