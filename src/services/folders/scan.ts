import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import PQueue from 'p-queue';
import { realpath, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { MediaError, probeMedia, resolveInsideRoots, SourceError } from '../../media/index.js';
import { resolveDirInsideRoots } from '../../media/folder-path.js';
import { probeStillImage } from '../../media/still-image.js';
import { walkFolder } from '../../media/walk.js';
import { captureMemo } from './capture-memo.js';
import { relinkMedia } from './relink.js';
import type { FolderFileRow, FolderRow } from '../../store/folders.js';
import type { Store } from '../../store/index.js';
import { inTransaction } from '../../store/connection.js';
import { fingerprintFile } from '../analysis/fingerprint.js';
import { indexMedia, type IndexDeps, type IndexTaskOptions } from '../analysis/index-task.js';
import { nowIso } from '../timestamps.js';
import type { ItemService } from '../items.js';
import { collectionDeleted, type TaskContext } from '../task-engine.js';
import { describeFailure } from '../task-failure.js';
import type { StageItem } from '../task-steps.js';

/** Input of a scan task. */
export interface ScanTaskData {
  folder_id: string;
  /** The collection's id when the scan was asked for (the task's endpoint path names it). */
  collection?: string | null;
  /** The folder's path, so a task list can say which folder it scans. */
  path?: string;
}

/** A file the scan could not use, by its path relative to the folder. */
export interface ScanProblem {
  path: string;
  reason: string;
  /** The reason as a code a page can say in its language (a task failure code), when there is one. */
  code?: string;
}

/**
 * The result of a scan task, also kept on the folder. Every entry the walk found lands in exactly one of
 * added, changed, moved, unchanged, skipped and failed, so `found` is their sum (`failed` counted by its
 * length); `removed` counts items of files that are gone.
 */
export interface ScanResult {
  folder_id: string;
  /** Entries found (media or not; excluded globs and vidx's own folders not counted). */
  found: number;
  added: number;
  changed: number;
  moved: number;
  removed: number;
  unchanged: number;
  /** Entries passed over: files that are not media, links leading outside the media roots, unreadable folders. */
  skipped: number;
  /** Why, for the first {@link MAX_LISTED} of them. */
  skipped_files: ScanProblem[];
  /** Media files that could not be indexed, with the reason (the first {@link MAX_FAILED}). */
  failed: ScanProblem[];
}

/** What a scan needs besides the task context. */
export interface ScanDeps {
  store: Store;
  items: ItemService;
  index: IndexDeps;
  indexOptions: IndexTaskOptions;
  mediaRoots: readonly string[];
  /** A file changed less than this long ago may still be written: it waits until it is stable. */
  stableMs: number;
  /** A file that keeps changing this long fails with "still being written". */
  maxWaitMs: number;
  /** Files indexed at once (the task concurrency). */
  concurrency: number;
}

/** Extensions people expect to be media: such a file that is not readable media fails (reported); others are ignored quietly. */
const MEDIA_EXTENSIONS = new Set(
  '.mp4 .m4v .mov .mkv .webm .avi .wmv .flv .mpg .mpeg .ts .mts .m2ts .3gp .ogv .mp3 .m4a .aac .wav .flac .ogg .opus .wma .amr .jpg .jpeg .png .webp .heic .heif .avif .tif .tiff .gif'.split(' '),
);
/** Subtitle files: not items, but read beside the media file they belong to. */
const SUBTITLE_EXTENSIONS = new Set(['.srt', '.vtt', '.ass', '.ssa', '.sub']);
function isSubtitle(rel: string): boolean {
  return SUBTITLE_EXTENSIONS.has(extname(rel).toLowerCase());
}

/** Why a file that is not media was skipped, in words: subtitles are read with their media file. */
function notMediaReason(rel: string, why: string): string {
  return isSubtitle(rel) ? 'subtitles: read with the media file of the same name' : `not a media file: ${why}`;
}

/** The skipped list stops growing here (the count goes on). */
const MAX_LISTED = 1000;
/** Failed files are listed up to here, so their count stays the list's length for any real folder. */
const MAX_FAILED = 10_000;
/** Unchanged files are marked seen in one transaction per this many. */
const SEEN_BATCH = 500;

/** Counts the files of a walk (a cheap first pass: directory entries only), for progress. */
async function countFiles(root: string, folder: FolderRow, realRoots: string[], signal: AbortSignal): Promise<number> {
  let n = 0;
  for await (const e of walkFolder(root, { recursive: folder.recursive === 1, exclude: JSON.parse(folder.exclude) as string[], realRoots, signal })) if (e.kind === 'file') n++;
  return n;
}

/**
 * One scan of a folder: walk it, index what is new or changed, follow moves by content, remove the items
 * of deleted files, and report. Resumable: the folder_files journal says what is done, so a scan that
 * restarts after a crash finds finished files unchanged (size + mtime) and goes on where it stopped.
 * @example
 * const result = await scanFolder(deps, ctx); // { found: 12, added: 12, … }
 */
export async function scanFolder(deps: ScanDeps, ctx: TaskContext<ScanTaskData>): Promise<ScanResult> {
  const { store } = deps;
  const folder = store.folders.get(ctx.data.folder_id);
  if (!folder) throw new Error(`folder "${ctx.data.folder_id}" no longer exists`);
  const collection = store.collections.findLiveByPk(folder.collection_pk);
  if (!collection) throw collectionDeleted();
  // A folder that is gone (an unplugged disk) fails the scan instead of removing every item.
  const root = await resolveDirInsideRoots(folder.path, deps.mediaRoots).catch((e: unknown) => {
    throw new Error(`folder ${folder.path} cannot be scanned: ${e instanceof Error ? e.message : String(e)}; nothing was changed`);
  });
  const realRoots = (await Promise.all(deps.mediaRoots.map((r) => realpath(r).catch(() => null)))).filter((r): r is string => r !== null);
  const seq = store.folders.nextScanSeq(folder.pk);
  const result: ScanResult = { folder_id: folder.folder_id, found: 0, added: 0, changed: 0, moved: 0, removed: 0, unchanged: 0, skipped: 0, skipped_files: [], failed: [] };
  const entry = (path: string, reason: string, code?: string | null): ScanProblem => ({ path, reason, ...(code ? { code } : {}) });
  const skip = (path: string, reason: string, code?: string | null) => {
    result.skipped++;
    if (result.skipped_files.length < MAX_LISTED) result.skipped_files.push(entry(path, reason, code));
  };
  const fail = (path: string, reason: string, code?: string | null) => void (result.failed.length < MAX_FAILED && result.failed.push(entry(path, reason, code)));

  ctx.progress(0, 'counting files');
  const total = await countFiles(root, folder, realRoots, ctx.signal);
  let done = 0;
  let lastReport = 0;
  // Throttled here whatever the stage: each progress write is a durable commit, and a scan of small files changes stage often.
  const report = (stage: string, opts: { force?: boolean; within?: number; item?: StageItem } = {}) => {
    const now = Date.now();
    if (!opts.force && now - lastReport < 500) return;
    lastReport = now;
    ctx.progress(total ? Math.min((done + (opts.within ?? 0)) / total, 0.99) : 0, stage, opts.item);
  };
  const capture = captureMemo();

  let seenBatch: number[] = [];
  const flushSeen = () => {
    if (seenBatch.length) inTransaction(store.db, () => store.folders.markSeen(seenBatch, seq));
    seenBatch = [];
  };

  const put = (row: Omit<FolderFileRow, 'pk' | 'folder_pk' | 'seen'>) => store.folders.putFile({ ...row, folder_pk: folder.pk, seen: seq });

  /** Looks at one file that is new or whose size or mtime changed. */
  const process = async (rel: string, abs: string, size: number, mtimeMs: number) => {
    ctx.signal.throwIfAborted();
    const row = store.folders.fileAt(folder.pk, rel);
    let real: string;
    try {
      // The media-roots rule at open time: every file a scan reads passes it.
      real = await resolveInsideRoots(abs, deps.mediaRoots, [deps.indexOptions.dataDir]);
    } catch (e) {
      if (!(e instanceof SourceError)) throw e;
      skip(rel, e.message, e.code);
      return;
    }
    const fingerprint = await fingerprintFile(real);
    if (row?.state === 'indexed' && row.fingerprint === fingerprint) {
      put({ ...row, size, mtime_ms: mtimeMs });
      result.unchanged++;
      return;
    }
    if (!row || row.state !== 'indexed') {
      for (const other of store.folders.moveCandidates(folder.pk, fingerprint, seq)) {
        if (other.rel_path === rel || (await stat(join(root, other.rel_path)).catch(() => null))) continue;
        store.folders.moveFile(other.pk, rel, size, mtimeMs, seq);
        const moved = store.items.find(collection.pk, other.media_id!);
        await relinkMedia(deps.indexOptions.dataDir, moved ? (store.search.analysisOf(moved.pk)?.stored_file ?? null) : null, real);
        result.moved++;
        return;
      }
    }
    try {
      // Recognised by content: a picture sharp reads, else whatever ffprobe accepts as audio or video.
      // A copy of content already indexed in this folder is known media (hard links, duplicates).
      if (!store.folders.hasIndexedContent(folder.pk, fingerprint) && !(await probeStillImage(real))) await probeMedia(real, { signal: ctx.signal });
    } catch (e) {
      if (ctx.signal.aborted) throw e;
      const quiet = e instanceof MediaError && ['not_media', 'empty', 'no_streams'].includes(e.code) && !MEDIA_EXTENSIONS.has(extname(rel).toLowerCase());
      const { message: reason, code } = describeFailure(e);
      if (quiet) {
        if (row?.media_id && deps.items.remove(collection.pk, row.media_id)) result.removed++;
        put({ rel_path: rel, size, mtime_ms: mtimeMs, fingerprint, media_id: null, state: 'ignored', reason, reason_code: code });
        skip(rel, notMediaReason(rel, reason), isSubtitle(rel) ? 'subtitles' : code);
        return;
      }
      put({ rel_path: rel, size, mtime_ms: mtimeMs, fingerprint, media_id: row?.media_id ?? null, state: 'failed', reason, reason_code: code });
      fail(rel, reason, code);
      return;
    }
    // A file that failed after being indexed still has its item: fixing it changes that item.
    const wasIndexed = row?.state === 'indexed' || (row?.state === 'failed' && row.media_id !== null && store.items.find(collection.pk, row.media_id) !== undefined);
    const mediaId = row?.media_id ?? randomUUID();
    // Journal first: after a crash the file is tried again with the same media_id.
    put({ rel_path: rel, size, mtime_ms: mtimeMs, fingerprint, media_id: mediaId, state: 'pending', reason: null });
    const item: StageItem = { n: done + 1, total, name: rel };
    try {
      await indexMedia(
        deps.index,
        deps.indexOptions,
        {
          video: { path: real, url: null, content: null, media_id: mediaId, title: null, additional_metadata: null },
          collection: collection.collection_id,
          // The folder's language if it has one; else each file's speech and text decide, as with /analyze.
          index_language: folder.language ?? null,
          reindex_if_exists: true,
          upload: null,
        },
        { id: ctx.id, owner: ctx.owner, collectionPk: collection.pk, signal: ctx.signal, work: ctx.work, progress: (f, s) => report(s, { within: f, item }) },
        { folderPk: folder.pk, readCapture: (file, kind, signal) => capture.read(fingerprint, file, kind, signal) },
      );
      put({ rel_path: rel, size, mtime_ms: mtimeMs, fingerprint, media_id: mediaId, state: 'indexed', reason: null });
      if (wasIndexed) result.changed++;
      else result.added++;
    } catch (e) {
      if (ctx.signal.aborted) throw e;
      const { message: reason, code } = describeFailure(e);
      // A file that was indexed and is now broken keeps its item until it is readable again or deleted.
      put({ rel_path: rel, size, mtime_ms: mtimeMs, fingerprint, media_id: mediaId, state: 'failed', reason, reason_code: code });
      fail(rel, reason, code);
    }
  };

  // New and changed files are indexed up to `concurrency` at a time; the walk waits while that many are queued,
  // so nothing piles up in memory. The first failure that is not the file's own (cancel, a lost database) ends the scan.
  const work = new PQueue({ concurrency: deps.concurrency });
  let failure: unknown = null;
  const enqueue = async (rel: string, abs: string, size: number, mtimeMs: number) => {
    if (failure) throw failure;
    await work.onSizeLessThan(deps.concurrency);
    void work.add(async () => {
      try {
        await process(rel, abs, size, mtimeMs);
        done++;
        report('indexed', { item: { n: done, total, name: rel } });
      } catch (e) {
        failure ??= e;
      }
    });
  };
  const settle = async () => {
    await work.onIdle();
    if (failure) throw failure;
  };

  // Files changed moments ago wait here until they stop changing; few at a time in practice.
  const fresh = new Map<string, { abs: string; size: number; mtimeMs: number; since: number }>();
  try {
    for await (const entry of walkFolder(root, { recursive: folder.recursive === 1, exclude: JSON.parse(folder.exclude) as string[], realRoots, signal: ctx.signal })) {
      if (entry.kind === 'skipped') {
        result.found++;
        skip(entry.rel, entry.reason, entry.code);
        continue;
      }
      const st = await stat(entry.abs).catch(() => null);
      if (!st?.isFile()) continue;
      result.found++;
      const row = store.folders.fileAt(folder.pk, entry.rel);
      if (row && row.state !== 'pending' && row.size === st.size && row.mtime_ms === st.mtimeMs) {
        seenBatch.push(row.pk);
        if (seenBatch.length >= SEEN_BATCH) flushSeen();
        if (row.state === 'indexed') result.unchanged++;
        else if (row.state === 'failed') fail(entry.rel, row.reason ?? 'failed', row.reason_code);
        else skip(entry.rel, notMediaReason(entry.rel, row.reason ?? 'unreadable as media'), isSubtitle(entry.rel) ? 'subtitles' : row.reason_code);
        done++;
        report('checking files');
        continue;
      }
      if (Date.now() - st.mtimeMs < deps.stableMs) {
        // Its old row (if any) counts as seen: a file being rewritten is not a deleted file.
        if (row) seenBatch.push(row.pk);
        fresh.set(entry.rel, { abs: entry.abs, size: st.size, mtimeMs: st.mtimeMs, since: Date.now() });
        continue;
      }
      flushSeen();
      await enqueue(entry.rel, entry.abs, st.size, st.mtimeMs);
    }
    flushSeen();
    await settle();

    while (fresh.size) {
      report('waiting for files', { force: true });
      await delay(Math.min(500, deps.stableMs), undefined, { signal: ctx.signal });
      for (const [rel, f] of fresh) {
        const st = await stat(f.abs).catch(() => null);
        if (!st?.isFile()) {
          // Gone (or replaced) before it held still: not found after all.
          fresh.delete(rel);
          result.found--;
          continue;
        }
        const now = Date.now();
        if (st.size !== f.size || st.mtimeMs !== f.mtimeMs) {
          if (now - f.since > deps.maxWaitMs) {
            fresh.delete(rel);
            fail(rel, `still being written after ${Math.round(deps.maxWaitMs / 1000)} s; the next scan tries again`, 'still_written');
          } else fresh.set(rel, { ...f, size: st.size, mtimeMs: st.mtimeMs });
          continue;
        }
        if (now - st.mtimeMs < deps.stableMs) continue;
        fresh.delete(rel);
        await enqueue(rel, f.abs, st.size, st.mtimeMs);
      }
      await settle();
    }
  } catch (e) {
    // Nothing of this scan may still be writing when the task ends (a cancelled task is deleted right after).
    work.clear();
    await work.onIdle();
    throw e;
  }

  // Files this scan did not find are gone: their items leave the collection.
  report('removing deleted files', { force: true });
  for (;;) {
    const gone = store.folders.unseen(folder.pk, seq, 200);
    if (!gone.length) break;
    for (const row of gone) {
      if (row.media_id && (row.state === 'indexed' || row.state === 'pending' || row.state === 'failed')) {
        if (deps.items.remove(collection.pk, row.media_id)) result.removed++;
      }
      store.folders.deleteFile(row.pk);
    }
  }
  store.folders.finishScan(folder.pk, nowIso(), JSON.stringify(result));
  return result;
}
