/**
 * What a scan does with one file that is new, or whose size or date changed: read its bytes, then call it
 * unchanged (the same bytes), moved (the content of a file that is gone), not media, or index it.
 */
import type { MediaTools } from '../../media/binaries.js';
import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { MediaError, probeMedia, resolveInsideRoots, SourceError } from '../../media/index.js';
import { probeStillImage } from '../../media/still-image.js';
import type { FolderFileRow, FolderRow } from '../../store/folders.js';
import type { Repos } from '../../store/index.js';
import { fingerprintFile, hashWholeFile } from '../../analysis/fingerprint.js';
import { indexMedia, type IndexDeps, type IndexTaskOptions } from '../analysis/index-task.js';
import type { ItemService } from '../items.js';
import type { TaskContext } from '../task-engine.js';
import { describeFailure } from '../task-failure.js';
import type { StageItem } from '../task-steps.js';
import type { captureMemo } from './capture-memo.js';
import { relinkMedia } from './relink.js';
import { isSubtitle, notMediaReason, type ScanTally } from './scan-tally.js';
import { english } from '../../messages/index.js';

/** Extensions people expect to be media: such a file that is not readable media fails (reported); others are ignored quietly. */
export const MEDIA_EXTENSIONS: ReadonlySet<string> = new Set(
  '.mp4 .m4v .mov .mkv .webm .avi .wmv .flv .mpg .mpeg .ts .mts .m2ts .3gp .ogv .mp3 .m4a .aac .wav .flac .ogg .opus .wma .amr .jpg .jpeg .png .webp .heic .heif .avif .tif .tiff .gif'.split(' '),
);

/** A file the walk found, as it was when looked at. */
export interface FoundFile {
  rel: string;
  abs: string;
  size: number;
  mtimeMs: number;
}

/** What one scan holds while it looks at files: the folder, its collection, the tally and how to report. */
export interface ScanRun {
  store: Repos<'db' | 'folders' | 'items' | 'search'>;
  items: ItemService;
  index: IndexDeps;
  indexOptions: IndexTaskOptions;
  mediaRoots: readonly string[];
  tools: MediaTools;
  folder: FolderRow;
  collection: { pk: number; collection_id: string };
  /** The real path of the folder. */
  root: string;
  /** This scan's number: every file it finds is marked with it. */
  seq: number;
  tally: ScanTally;
  capture: ReturnType<typeof captureMemo>;
  ctx: TaskContext;
  /** Reports progress within the current file (0..1) with a stage. */
  progress(within: number, stage: string, item: StageItem): void;
  /** Which file of how many this is, for the task's step. */
  item(rel: string): StageItem;
}

/** A file's journal row with the scan's number and folder filled in. */
function put(run: ScanRun, row: Omit<FolderFileRow, 'pk' | 'folder_pk' | 'seen'>): void {
  run.store.folders.putFile({ ...row, folder_pk: run.folder.pk, seen: run.seq });
}

/**
 * Looks at one file that is new or whose size or date changed, and journals what it is now.
 * @example
 * await lookAtFile(run, { rel: 'trips/beach.mp4', abs, size, mtimeMs });
 */
export async function lookAtFile(run: ScanRun, file: FoundFile): Promise<void> {
  run.ctx.signal.throwIfAborted();
  const row = run.store.folders.fileAt(run.folder.pk, file.rel);
  let real: string;
  try {
    // The media-roots rule at open time: every file a scan reads passes it.
    real = await resolveInsideRoots(run.tools.files, file.abs, run.mediaRoots, [run.indexOptions.dataDir]);
  } catch (e) {
    if (!(e instanceof SourceError)) throw e;
    run.tally.skip(file.rel, e.message, e.code);
    return;
  }
  const content = { fingerprint: await fingerprintFile(run.tools.files, real), content_hash: await hashWholeFile(run.tools.files, real, run.ctx.signal) };
  // The same bytes as when it was indexed: its date changed, nothing else (a sampled fingerprint alone would
  // miss a same-size edit between its samples).
  if (row && forgetDeletedItem(run, file, row)) return;
  if (row?.state === 'indexed' && row.content_hash === content.content_hash) {
    put(run, { ...row, size: file.size, mtime_ms: file.mtimeMs });
    run.tally.result.unchanged++;
    return;
  }
  if (row?.state !== 'indexed' && (await followMove(run, file, real, content.fingerprint))) return;
  if (!(await recognise(run, file, real, row, content))) return;
  await indexFile(run, file, real, row, content);
}

/** Why a file whose item a person deleted is passed over (the page words it from the code `item_deleted`). */
const ITEM_DELETED = 'its item was deleted in vidx; the file is indexed again once it changes';

/**
 * Whether a file journalled as indexed lost its item to a person's delete (the Items or Duplicates view):
 * then it is counted as removed once and journalled as passed over, so later scans neither call it
 * unchanged nor bring back what the person deleted. True when that was so.
 * @example
 * if (forgetDeletedItem(run, file, row)) return;
 */
export function forgetDeletedItem(run: ScanRun, file: FoundFile, row: FolderFileRow): boolean {
  if (row.state !== 'indexed' || !row.media_id || run.store.items.find(run.collection.pk, row.media_id)) return false;
  put(run, { ...row, size: file.size, mtime_ms: file.mtimeMs, media_id: null, state: 'ignored', reason: ITEM_DELETED, reason_code: 'item_deleted' });
  run.tally.result.removed++;
  run.tally.skip(file.rel, ITEM_DELETED, 'item_deleted');
  return true;
}

/** A new path with the content of a file that is gone: the item follows it. True when it was a move. */
async function followMove(run: ScanRun, file: FoundFile, real: string, fingerprint: string): Promise<boolean> {
  for (const other of run.store.folders.moveCandidates(run.folder.pk, fingerprint, run.seq)) {
    if (other.rel_path === file.rel || (await stat(join(run.root, other.rel_path)).catch(() => null))) continue;
    run.store.folders.moveFile(other.pk, file.rel, file.size, file.mtimeMs, run.seq);
    const moved = run.store.items.find(run.collection.pk, other.media_id!);
    await relinkMedia(run.indexOptions.dataDir, moved ? (run.store.search.analysisOf(moved.pk)?.stored_file ?? null) : null, real);
    run.tally.result.moved++;
    return true;
  }
  return false;
}

/**
 * Whether the file is media: a picture sharp reads, else whatever ffprobe accepts as audio or video (a copy of
 * content already indexed in this folder is known media). What is not is journalled as ignored or failed.
 */
async function recognise(run: ScanRun, file: FoundFile, real: string, row: FolderFileRow | undefined, content: { fingerprint: string; content_hash: string }): Promise<boolean> {
  try {
    if (!run.store.folders.hasIndexedContent(run.folder.pk, content.fingerprint) && !(await probeStillImage(run.tools.files, real))) await probeMedia(real, { signal: run.ctx.signal, tools: run.tools });
    return true;
  } catch (e) {
    if (run.ctx.signal.aborted) throw e;
    const quiet = e instanceof MediaError && ['not_media', 'empty', 'no_streams'].includes(e.code) && !MEDIA_EXTENSIONS.has(extname(file.rel).toLowerCase());
    const { message: reason, code } = describeFailure(e);
    const base = { rel_path: file.rel, size: file.size, mtime_ms: file.mtimeMs, ...content, reason, reason_code: code };
    if (quiet) {
      if (row?.media_id && run.items.remove(run.collection.pk, row.media_id)) run.tally.result.removed++;
      put(run, { ...base, media_id: null, state: 'ignored' });
      run.tally.skip(file.rel, notMediaReason(file.rel, reason), isSubtitle(file.rel) ? 'subtitles' : code);
    } else {
      put(run, { ...base, media_id: row?.media_id ?? null, state: 'failed' });
      run.tally.fail(file.rel, reason, code);
    }
    return false;
  }
}

/** Indexes the file under its media_id (kept from an earlier version), journalled first so a crash retries it. */
async function indexFile(run: ScanRun, file: FoundFile, real: string, row: FolderFileRow | undefined, content: { fingerprint: string; content_hash: string }): Promise<void> {
  const { store, collection, ctx } = run;
  // A file that failed after being indexed still has its item: fixing it changes that item.
  const wasIndexed = row?.state === 'indexed' || (row?.state === 'failed' && row.media_id !== null && store.items.find(collection.pk, row.media_id) !== undefined);
  const mediaId = row?.media_id ?? randomUUID();
  const base = { rel_path: file.rel, size: file.size, mtime_ms: file.mtimeMs, ...content, media_id: mediaId, reason: null };
  put(run, { ...base, state: 'pending' });
  const item = run.item(file.rel);
  try {
    await indexMedia(
      run.index,
      run.indexOptions,
      {
        video: { path: real, url: null, content: null, media_id: mediaId, title: null, additional_metadata: null },
        collection: collection.collection_id,
        // The folder's language if it has one; else each file's speech and text decide, as with /analyze.
        index_language: run.folder.language ?? null,
        reindex_if_exists: true,
        upload: null,
      },
      { id: ctx.id, owner: ctx.owner, collectionPk: collection.pk, signal: ctx.signal, work: ctx.work, progress: (f, s) => run.progress(f, s, item) },
      {
        folderPk: run.folder.pk,
        contentHash: content.content_hash,
        readCapture: async (path, kind, signal) => {
          const capture = await run.capture.read(content.fingerprint, path, kind, signal);
          if (capture.warning) run.tally.warn(file.rel, english(capture.warning), 'exif_unreadable');
          return capture;
        },
      },
    );
    put(run, { ...base, state: 'indexed' });
    if (wasIndexed) run.tally.result.changed++;
    else run.tally.result.added++;
  } catch (e) {
    if (ctx.signal.aborted) throw e;
    const { message: reason, code } = describeFailure(e);
    // A file that was indexed and is now broken keeps its item until it is readable again or deleted.
    put(run, { ...base, state: 'failed', reason, reason_code: code });
    run.tally.fail(file.rel, reason, code);
  }
}
