/**
 * Folders bound to collections: the service, the scan task and the watcher that asks for scans as files
 * change.
 */
import { FolderService } from '../services/folders/service.js';
import { registerScanTask } from '../services/folders/tasks.js';
import { FolderWatcher } from '../services/folders/watch.js';
import type { AnalysisSide } from './analysis.js';
import type { Core } from './core.js';

/** A file changed less than this long ago may still be written: a scan waits until it holds still this long. */
const FILE_STABLE_MS = 2_000;
/** A file that keeps changing this long is reported as failed ("still being written") and tried by the next scan. */
const FILE_MAX_WAIT_MS = 10 * 60_000;
/** File events of a watched folder are gathered this long before one scan is asked for. */
const WATCH_DEBOUNCE_MS = 1_500;

/** What a start may set of the folder side besides the settings (tests shorten the waits). */
export interface FolderOptions {
  /** How long a file must hold still before a scan reads it (default 2 s). */
  fileStableMs?: number;
}

/**
 * Builds the folder service, registers the scan task and starts watching nothing yet (see `watchAll`).
 * @example
 * const { folders, watchAll, close } = buildFolders(core, analysis);
 */
export function buildFolders(
  core: Core,
  analysis: AnalysisSide,
  opts: FolderOptions = {},
): { folders: FolderService; watchAll(): void; close(): Promise<void> } {
  const { config, store } = core;
  const folders = new FolderService(store, core.collections, core.items, core.engine, config.mediaRoots, core.files);
  registerScanTask(
    core.engine,
    {
      store, items: core.items, index: analysis.index, indexOptions: analysis.indexOptions, mediaRoots: config.mediaRoots, tools: analysis.models.tools,
      stableMs: opts.fileStableMs ?? FILE_STABLE_MS, maxWaitMs: FILE_MAX_WAIT_MS, concurrency: config.taskConcurrency,
    },
    (pk) => folders.scanEnding(pk),
  );
  const watcher = new FolderWatcher(
    (pk) => {
      const folder = store.folders.byPk(pk);
      if (folder?.watch) folders.requestScan(folder, folder.owner);
    },
    { debounceMs: WATCH_DEBOUNCE_MS, rescanMs: config.folderRescanMinutes * 60_000, files: core.files },
  );
  folders.watchWith(watcher);
  core.collections.onDelete((pk) => {
    for (const f of store.folders.listForCollection(pk)) watcher.removed(f.pk);
    return false; // one step: nothing left for another batch
  });
  return {
    folders,
    watchAll: () => {
      for (const f of store.folders.listWatched()) watcher.added(f);
    },
    close: () => watcher.close(),
  };
}
