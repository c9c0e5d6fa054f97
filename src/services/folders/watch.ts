import { relative, sep } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import { excluder } from '../../media/walk.js';
import type { FileAccess } from '../../media/file-access.js';
import type { FolderRow } from '../../store/folders.js';

/** Timing of folder watching. */
export interface WatchOptions {
  /** Events are gathered this long after the last one before a scan is asked for. */
  debounceMs: number;
  /** A full rescan this often, for what file events miss (network shares, a sleeping laptop); 0 = never. */
  rescanMs: number;
  /** The server's file-access rule: vidx's own folders are never watched. */
  files: FileAccess;
}

interface Watched {
  watcher: FSWatcher;
  debounce: NodeJS.Timeout | null;
  periodic: NodeJS.Timeout | null;
}

/**
 * Watches folders with `watch: true` (chokidar) and asks for a scan shortly after files are added, changed,
 * moved or removed (events debounced into one scan), plus a periodic rescan. The scan itself is incremental:
 * unchanged files cost one stat each.
 * @example
 * const watcher = new FolderWatcher((folder) => folders.requestScan(folder, folder.owner), { debounceMs: 1500, rescanMs: 3_600_000 });
 * watcher.added(folderRow);
 * await watcher.close();
 */
export class FolderWatcher {
  private readonly watched = new Map<number, Watched>();

  constructor(
    private readonly scan: (folderPk: number) => void,
    private readonly opts: WatchOptions,
  ) {}

  added(folder: FolderRow): void {
    if (this.watched.has(folder.pk)) return;
    const excluded = excluder(JSON.parse(folder.exclude) as string[]);
    const watcher = watch(folder.path, {
      ignoreInitial: true,
      followSymlinks: false,
      depth: folder.recursive ? undefined : 0,
      // vidx's own folders (a data dir inside the watched folder) change all the time and are never media.
      ignored: (path) => {
        if (this.opts.files.isOwnPath(path)) return true;
        const rel = relative(folder.path, path).split(sep).join('/');
        return rel !== '' && (excluded(rel) || excluded(`${rel}/`));
      },
    });
    const w: Watched = { watcher, debounce: null, periodic: null };
    watcher.on('all', () => {
      if (w.debounce) clearTimeout(w.debounce);
      w.debounce = setTimeout(() => {
        w.debounce = null;
        this.scan(folder.pk);
      }, this.opts.debounceMs);
    });
    // A watcher error (a folder that went away) must not crash the server; the periodic rescan reports it.
    watcher.on('error', () => {});
    if (this.opts.rescanMs > 0) w.periodic = setInterval(() => this.scan(folder.pk), this.opts.rescanMs);
    this.watched.set(folder.pk, w);
  }

  removed(folderPk: number): void {
    const w = this.watched.get(folderPk);
    if (!w) return;
    this.watched.delete(folderPk);
    if (w.debounce) clearTimeout(w.debounce);
    if (w.periodic) clearInterval(w.periodic);
    void w.watcher.close();
  }

  async close(): Promise<void> {
    const all = [...this.watched.keys()];
    await Promise.all(all.map(async (pk) => {
      const w = this.watched.get(pk)!;
      this.removed(pk);
      await w.watcher.close();
    }));
  }
}
