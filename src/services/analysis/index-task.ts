import { rm } from 'node:fs/promises';
import type { AnalysisWarning } from '../../analysis/warnings.js';
import type { Repos } from '../../store/index.js';
import { collectionDeleted, type TaskContext, type TaskEngine } from '../task-engine.js';
import { removeTaskUpload, type IndexTaskData, type StoredVideo } from '../submissions.js';
import type { IndexedItem, SearchIndex, StoredItem } from '../search/index.js';
import { type CaptureInfo, type ExifWarning, readCaptureInfo } from '../../media/capture-info.js';

/** Reads a local file's capture time and place (a scan passes one that reads each content once). */
type CaptureReader = (file: string, kind: 'image' | 'video' | 'audio', signal?: AbortSignal) => Promise<CaptureInfo>;
import { dateFromFileName } from '../../media/filename-date.js';
import type { TaskUpload } from '../submissions.js';
import type { AnalyzedMedia, Analyzer } from './analyzer.js';
import type { MediaAnalysis } from '../../analysis/types.js';
import { storeFaceTracks } from '../people/grouping.js';
import { storeVoiceTracks } from '../people/voice-grouping.js';
import { dropOtherVersions, stageItemFiles } from './item-files.js';
import type { PlaceService } from '../places.js';

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
  /** Keyed, as the analysis holds them (an unreadable EXIF block in words); said in the reader's language when shown. */
  warnings: AnalysisWarning[];
}

/** What indexing one media file needs. */
export interface IndexDeps {
  analyzer: Analyzer;
  store: Repos<'collections' | 'faces' | 'items' | 'search' | 'storage' | 'voices'>;
  searchIndex: SearchIndex;
  /** Names the place of an item's GPS point (offline). */
  places: Pick<PlaceService, 'locate'>;
  /** Told as storing passes each step (crash tests stop the process there). */
  onStep?: (step: IndexStep) => void;
}

/** The steps of storing an analysed item: its files written, its rows committed, older versions removed. */
export type IndexStep = 'staged' | 'committed' | 'cleaned';

/** Fields of the item that the caller knows and the media does not: the folder a scan found it in. */
export interface IndexExtras {
  folderPk?: number | null;
  /** Reads the capture time and place (a scan passes one that reads each content once). */
  readCapture?: CaptureReader;
  /** The whole file's hash, where the caller read it (scans): the analysis cache then knows the bytes exactly. */
  contentHash?: string;
}

/**
 * The date an upload's or download's name states: the name it was sent under, else its title (a reindexed
 * upload is a copy under a stored name; its title still is the name it came with, unless renamed).
 */
function nameDate(video: StoredVideo, upload: TaskUpload | null | undefined): string | null {
  for (const name of [upload?.filename, video.title]) {
    const found = name ? dateFromFileName(name) : null;
    if (found) return found;
  }
  return null;
}

/**
 * The capture time and place of the item: what a local file states, else what its name states
 * (`filename`), else its file date (`file`); for an upload or a download what its content stated while it
 * was there, else what its name states, else the date of the file where the caller has it
 * (`file_modified_at`, the page's File.lastModified), else nothing. An upload's own file date is when it
 * was copied, never used.
 */
async function captureOf(analyzed: AnalyzedMedia, video: StoredVideo, upload: TaskUpload | null | undefined, signal: AbortSignal, read: CaptureReader): Promise<{ item: Partial<IndexedItem>; warning: ExifWarning | null }> {
  const { localPath, analysis, capture } = analyzed;
  if (localPath) {
    const c = await read(localPath, analysis.type, signal);
    return { item: { captured_at: c.capturedAt, captured_at_source: c.source, latitude: c.latitude, longitude: c.longitude }, warning: c.warning };
  }
  const place = { latitude: capture?.latitude ?? null, longitude: capture?.longitude ?? null };
  const warning = capture?.warning ?? null;
  if (capture?.source && capture.capturedAt) return { item: { captured_at: capture.capturedAt, captured_at_source: 'metadata', ...place }, warning };
  const named = nameDate(video, upload);
  if (named) return { item: { captured_at: named, captured_at_source: 'filename', ...place }, warning };
  if (video.file_modified_at) return { item: { captured_at: new Date(video.file_modified_at).toISOString(), captured_at_source: 'file', ...place }, warning };
  return { item: place, warning };
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
  ctx: Pick<TaskContext, 'id' | 'owner' | 'collectionPk' | 'signal' | 'work'> & { progress: (fraction: number, stage: string) => void },
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
    removeTaskUpload(d, deps.store.storage);
    return {
      collection: d.collection, media_id: d.video.media_id, status: 'skipped',
      reason: 'media_id already in the collection; nothing was changed (set reindex_if_exists to replace it)',
      episodes: 0, duration: existing.duration, transcript_source: null, warnings: [],
    };
  }
  const faces = deps.store.faces.enabled(collectionOf().pk);
  const voices = deps.store.voices.enabled(collectionOf().pk);
  // The analysis is the heavy part: it runs in the owner's turn under the server's one bound.
  const analyzed = await ctx.work(() => deps.analyzer.run(d.video, d.upload, d.index_language, { ...ctx, faces, voices, ...(extras.contentHash ? { contentHash: extras.contentHash } : {}) }));
  ctx.progress(0.99, 'storing');
  const { item: capture, warning } = await captureOf(analyzed, d.video, d.upload, ctx.signal, extras.readCapture ?? ((f, k, s) => readCaptureInfo(f, k, deps.analyzer.tools, s)));
  const place = await deps.places.locate(capture.latitude ?? null, capture.longitude ?? null);
  // A point that is no place on Earth (0,0 from a camera without a fix, out of range) is not kept either.
  const point = place ? {} : { latitude: null, longitude: null };
  // A task cancelled while it read the file's date or place stores nothing.
  ctx.signal.throwIfAborted();
  const result = await storeAnalyzed(deps, opts, d, collectionOf(), analyzed, { ...capture, ...point, ...place, folder_pk: extras.folderPk ?? null });
  return warning ? { ...result, warnings: [...result.warnings, warning] } : result;
}

/**
 * Stores an analysed item atomically: its files in a new version folder, then its rows (with its face tracks)
 * shown to readers in one transaction (a large item's written before in slices: SearchIndex), then the older
 * versions and the upload removed.
 */
async function storeAnalyzed(
  deps: IndexDeps,
  opts: IndexTaskOptions,
  d: IndexTaskData,
  collection: { pk: number },
  analyzed: AnalyzedMedia,
  known: Partial<IndexedItem>,
): Promise<IndexResult> {
  const { analysis, src, localPath } = analyzed;
  // The setting may have been turned off while the item was analysed: then nothing about faces is kept.
  const keepFaces = Boolean(analysis.faces) && deps.store.faces.enabled(collection.pk);
  const keepVoices = Boolean(analysis.voices) && deps.store.voices.enabled(collection.pk);
  const staged = await stageItemFiles({
    dataDir: opts.dataDir, uploadsDir: opts.uploadsDir, collectionPk: collection.pk, data: d,
    episodes: analysis.episodes, faces: analysis.faces ?? null, keepFaces, localPath,
  });
  deps.onStep?.('staged');
  let result: StoredItem;
  try {
    result = await deps.searchIndex.storeItemInSlices(
      collection.pk,
      {
        media_id: d.video.media_id,
        type: analysis.type,
        // The caller's title, else the file's or page's name, else what the container calls itself.
        title: d.video.title ?? analyzed.sourceName ?? analysis.title,
        size: analyzed.size,
        src,
        thumbnail: staged.episodes[0]?.thumbnail ?? null,
        duration: analysis.duration,
        additional_metadata: d.video.additional_metadata,
        storedFile: staged.storedFile,
        ...known,
      },
      { ...analysis, episodes: staged.episodes },
      {
        replace: d.reindex_if_exists,
        // Face tracks commit with the item: a crash leaves either the old item and its faces, or the new ones.
        alsoWrite: (item) => {
          if (keepFaces) storeFaceTracks(deps.store.faces, collection.pk, item.pk, analysis.faces ?? [], staged.faceThumbs, analysis.facesSamePerson ?? undefined);
          if (keepVoices) storeVoiceTracks(deps.store, collection.pk, item.pk, analysis.voices ?? []);
        },
      },
    );
  } catch (err) {
    await rm(staged.dir, { recursive: true, force: true });
    throw err;
  }
  deps.onStep?.('committed');
  // The new version is in use: the upload it holds a link to and every older version can go.
  removeTaskUpload(d, deps.store.storage);
  await dropOtherVersions(staged.dir);
  deps.onStep?.('cleaned');
  return {
    collection: d.collection, media_id: d.video.media_id, status: result.replaced ? 'reindexed' : 'indexed',
    episodes: result.episodes, duration: analysis.duration, transcript_source: analysis.transcriptSource, warnings: analysis.warnings,
  };
}

/**
 * Registers the /index task (see {@link indexMedia}).
 * @example
 * registerIndexTask(engine, { analyzer, store, searchIndex }, { dataDir, uploadsDir });
 */
export function registerIndexTask(engine: TaskEngine, deps: IndexDeps, opts: IndexTaskOptions): void {
  engine.register<IndexTaskData>('index', (ctx): Promise<IndexResult> => indexMedia(deps, opts, ctx.data, ctx));
}
