/**
 * One scan of a folder: walk it, look at what is new or changed (scan-file.ts), wait for files still being
 * written, remove the items of files that are gone, and report. Resumable: the folder_files journal says
 * what is done, so a scan that restarts after a crash finds finished files unchanged (size + date) and goes
 * on where it stopped.
 */
import type { FileAccess } from '../../media/file-access.js';
import type { MediaTools } from '../../media/binaries.js';
import { setTimeout as delay } from 'node:timers/promises';
import { realpath, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import PQueue from 'p-queue';
import { resolveDirInsideRoots } from '../../media/folder-path.js';
import { startsLikeMedia } from '../../media/media-signature.js';
import { walkFolder } from '../../media/walk.js';
import { inTransaction } from '../../store/connection.js';
import type { Repos } from '../../store/index.js';
import type { IndexDeps, IndexTaskOptions } from '../analysis/index-task.js';
import type { ItemService } from '../items.js';
import { collectionDeleted, type TaskContext } from '../task-engine.js';
import type { StageItem } from '../task-steps.js';
import { nowIso } from '../timestamps.js';
import { captureMemo } from './capture-memo.js';
import { forgetDeletedItem, lookAtFile, MEDIA_EXTENSIONS, type FoundFile, type ScanRun } from './scan-file.js';
import { isSubtitle, notMediaReason, ScanTally, type ScanResult } from './scan-tally.js';

export type { ScanProblem, ScanResult } from './scan-tally.js';

/** Input of a scan task. */
export interface ScanTaskData {
  folder_id: string;
  /** The collection's id when the scan was asked for (the task's endpoint path names it). */
  collection?: string | null;
  /** The folder's path, so a task list can say which folder it scans. */
  path?: string;
}

/** What a scan needs besides the task context. */
export interface ScanDeps {
  store: Repos<'collections' | 'db' | 'folders' | 'items' | 'search'>;
  items: ItemService;
  index: IndexDeps;
  indexOptions: IndexTaskOptions;
  mediaRoots: readonly string[];
  /** The server's tools (FFMPEG_PATH …): a file is probed with its ffprobe. */
  tools: MediaTools;
  /** A file changed less than this long ago may still be written: it waits until it is stable. */
  stableMs: number;
  /** A file that keeps changing this long fails with "still being written". */
  maxWaitMs: number;
  /** Files of this scan in flight at once; the work gate bounds their analyses across all scans and tasks. */
  concurrency: number;
}

/** Unchanged files are marked seen in one transaction per this many. */
const SEEN_BATCH = 500;
/** Each progress write is a durable commit, and a scan of small files changes stage often: at most one per this. */
const REPORT_MS = 500;

/**
 * Scans a folder (see the module comment).
 * @example
 * const result = await scanFolder(deps, ctx); // { found: 12, added: 12, … }
 */
export async function scanFolder(deps: ScanDeps, ctx: TaskContext<ScanTaskData>): Promise<ScanResult> {
  const scan = await FolderScan.open(deps, ctx);
  await scan.walk();
  await scan.waitForFresh();
  scan.removeGone();
  return scan.finish();
}

/** The state of one scan and its steps. */
class FolderScan {
  private done = 0;
  private total = 0;
  private lastReport = 0;
  private seenBatch: number[] = [];
  /** Files changed moments ago wait here until they stop changing; few at a time in practice. */
  private readonly fresh = new Map<string, FoundFile & { since: number }>();
  /** New and changed files are looked at up to `concurrency` at a time; the walk waits while that many are queued. */
  private readonly queue: PQueue;
  /** The first failure that is not a file's own (cancel, a lost database): it ends the scan. */
  private failure: unknown = null;

  private constructor(
    private readonly deps: ScanDeps,
    private readonly run: ScanRun,
    private readonly realRoots: string[],
  ) {
    this.queue = new PQueue({ concurrency: deps.concurrency });
  }

  static async open(deps: ScanDeps, ctx: TaskContext<ScanTaskData>): Promise<FolderScan> {
    const { store } = deps;
    const folder = store.folders.get(ctx.data.folder_id);
    if (!folder) throw new Error(`folder "${ctx.data.folder_id}" no longer exists`);
    const collection = store.collections.findLiveByPk(folder.collection_pk);
    if (!collection) throw collectionDeleted();
    // A folder that is gone (an unplugged disk) fails the scan instead of removing every item.
    const root = await resolveDirInsideRoots(deps.tools.files, folder.path, deps.mediaRoots).catch((e: unknown) => {
      throw new Error(`folder ${folder.path} cannot be scanned: ${e instanceof Error ? e.message : String(e)}; nothing was changed`);
    });
    const realRoots = (await Promise.all(deps.mediaRoots.map((r) => realpath(r).catch(() => null)))).filter((r): r is string => r !== null);
    let scan: FolderScan | null = null;
    const run: ScanRun = {
      store, items: deps.items, index: deps.index, indexOptions: deps.indexOptions, mediaRoots: deps.mediaRoots, tools: deps.tools,
      folder, collection, root, seq: store.folders.nextScanSeq(folder.pk), tally: new ScanTally(folder.folder_id), capture: captureMemo(deps.tools), ctx,
      progress: (within, stage, item) => scan!.report(stage, { within, item }),
      item: (rel) => ({ n: scan!.done + 1, total: scan!.total, name: rel }),
    };
    scan = new FolderScan(deps, run, realRoots);
    ctx.progress(0, 'counting files');
    scan.total = await scan.countFiles();
    return scan;
  }

  /** Walks the folder: known files whose size and date are the same are counted at once, the rest looked at. */
  async walk(): Promise<void> {
    const { tally } = this.run;
    try {
      for await (const entry of this.entries()) {
        if (entry.kind === 'skipped') {
          tally.result.found++;
          tally.skip(entry.rel, entry.reason, entry.code);
          continue;
        }
        const st = await stat(entry.abs).catch(() => null);
        if (!st?.isFile()) continue;
        tally.result.found++;
        const file = { rel: entry.rel, abs: entry.abs, size: st.size, mtimeMs: st.mtimeMs };
        if (this.countIfKnown(file)) continue;
        // Only media is worth waiting for: a log or notes file still being written is looked at (and skipped) now.
        if (Date.now() - st.mtimeMs < this.deps.stableMs && (await mayBeMedia(this.run.tools.files, file))) this.holdFresh(file);
        else await this.enqueue(file);
      }
      this.flushSeen();
      await this.settle();
    } catch (e) {
      await this.stopQueue();
      throw e;
    }
  }

  /** Waits for files that were still changing, then looks at each once it holds still. */
  async waitForFresh(): Promise<void> {
    try {
      while (this.fresh.size) {
        this.report('waiting for files', { force: true });
        await delay(Math.min(500, this.deps.stableMs), undefined, { signal: this.run.ctx.signal });
        for (const [rel, f] of this.fresh) await this.recheckFresh(rel, f);
        await this.settle();
      }
    } catch (e) {
      await this.stopQueue();
      throw e;
    }
  }

  /** Files this scan did not find are gone: their items leave the collection. */
  removeGone(): void {
    const { store, folder, collection, seq, tally } = this.run;
    this.report('removing deleted files', { force: true });
    for (;;) {
      const gone = store.folders.unseen(folder.pk, seq, 200);
      if (!gone.length) break;
      for (const row of gone) {
        if (row.media_id && (row.state === 'indexed' || row.state === 'pending' || row.state === 'failed')) {
          if (this.deps.items.remove(collection.pk, row.media_id)) tally.result.removed++;
        }
        store.folders.deleteFile(row.pk);
      }
    }
  }

  finish(): ScanResult {
    const { result } = this.run.tally;
    this.run.store.folders.finishScan(this.run.folder.pk, nowIso(), JSON.stringify(result));
    return result;
  }

  /** A known file with the same size and date: counted by its journal row, no bytes read. */
  private countIfKnown(file: FoundFile): boolean {
    const { tally } = this.run;
    const row = this.run.store.folders.fileAt(this.run.folder.pk, file.rel);
    if (!row || row.state === 'pending' || row.size !== file.size || row.mtime_ms !== file.mtimeMs) return false;
    this.seenBatch.push(row.pk);
    if (this.seenBatch.length >= SEEN_BATCH) this.flushSeen();
    // An indexed file whose item a person deleted is counted as removed (and skipped), not as unchanged.
    if (row.state === 'indexed') {
      if (!forgetDeletedItem(this.run, file, row)) tally.result.unchanged++;
    } else if (row.state === 'failed') tally.fail(file.rel, row.reason ?? 'failed', row.reason_code);
    else if (row.reason_code === 'item_deleted') tally.skip(file.rel, row.reason ?? 'item deleted', row.reason_code);
    else tally.skip(file.rel, notMediaReason(file.rel, row.reason ?? 'unreadable as media'), isSubtitle(file.rel) ? 'subtitles' : row.reason_code);
    this.done++;
    this.report('checking files');
    return true;
  }

  private holdFresh(file: FoundFile): void {
    // Its old row (if any) counts as seen: a file being rewritten is not a deleted file.
    const row = this.run.store.folders.fileAt(this.run.folder.pk, file.rel);
    if (row) this.seenBatch.push(row.pk);
    this.fresh.set(file.rel, { ...file, since: Date.now() });
  }

  private async recheckFresh(rel: string, f: FoundFile & { since: number }): Promise<void> {
    const st = await stat(f.abs).catch(() => null);
    if (!st?.isFile()) {
      // Gone (or replaced) before it held still: not found after all.
      this.fresh.delete(rel);
      this.run.tally.result.found--;
      return;
    }
    const now = Date.now();
    if (st.size !== f.size || st.mtimeMs !== f.mtimeMs) {
      if (now - f.since > this.deps.maxWaitMs) {
        this.fresh.delete(rel);
        this.run.tally.fail(rel, `still being written after ${Math.round(this.deps.maxWaitMs / 1000)} s; the next scan tries again`, 'still_written');
      } else this.fresh.set(rel, { ...f, size: st.size, mtimeMs: st.mtimeMs });
      return;
    }
    if (now - st.mtimeMs < this.deps.stableMs) return;
    this.fresh.delete(rel);
    await this.enqueue({ rel, abs: f.abs, size: st.size, mtimeMs: st.mtimeMs });
  }

  private async enqueue(file: FoundFile): Promise<void> {
    this.flushSeen();
    if (this.failure) throw this.failure;
    await this.queue.onSizeLessThan(this.deps.concurrency);
    void this.queue.add(async () => {
      try {
        await lookAtFile(this.run, file);
        this.done++;
        this.report('indexed', { item: { n: this.done, total: this.total, name: file.rel } });
      } catch (e) {
        this.failure ??= e;
      }
    });
  }

  private async settle(): Promise<void> {
    await this.queue.onIdle();
    if (this.failure) throw this.failure;
  }

  /** Nothing of this scan may still be writing when the task ends (a cancelled task is deleted right after). */
  private async stopQueue(): Promise<void> {
    this.queue.clear();
    await this.queue.onIdle();
  }

  private flushSeen(): void {
    const batch = this.seenBatch;
    if (batch.length) inTransaction(this.run.store.db, () => this.run.store.folders.markSeen(batch, this.run.seq));
    this.seenBatch = [];
  }

  private report(stage: string, opts: { force?: boolean; within?: number; item?: StageItem } = {}): void {
    const now = Date.now();
    if (!opts.force && now - this.lastReport < REPORT_MS) return;
    this.lastReport = now;
    this.run.ctx.progress(this.total ? Math.min((this.done + (opts.within ?? 0)) / this.total, 0.99) : 0, stage, opts.item);
  }

  private entries() {
    const { folder, root, ctx } = this.run;
    return walkFolder(root, { recursive: folder.recursive === 1, exclude: JSON.parse(folder.exclude) as string[], realRoots: this.realRoots, files: this.run.tools.files, signal: ctx.signal });
  }

  /** Counts the files of a walk (a cheap first pass: directory entries only), for progress. */
  private async countFiles(): Promise<number> {
    let n = 0;
    for await (const e of this.entries()) if (e.kind === 'file') n++;
    return n;
  }
}

/**
 * Whether a file still being written may be media, by its extension or its first bytes. One that is neither
 * (a growing log) is looked at at once; should it turn out to be media after all, its change brings it back
 * at the next scan.
 */
async function mayBeMedia(files: FileAccess, file: FoundFile): Promise<boolean> {
  return MEDIA_EXTENSIONS.has(extname(file.rel).toLowerCase()) || (await startsLikeMedia(files, file.abs));
}
