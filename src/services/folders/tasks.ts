import type { TaskEngine } from '../task-engine.js';
import { scanFolder, type ScanDeps, type ScanTaskData } from './scan.js';

/**
 * Registers the folder scan task. Scans of one folder never overlap (FolderService.requestScan asks for one
 * rescan while a scan runs; should two tasks still meet, as after a restart, the second waits), and when a
 * scan ends, `scanEnding` queues the rescan asked for meanwhile.
 * @example
 * registerScanTask(engine, scanDeps, (pk) => folders.scanEnding(pk));
 */
export function registerScanTask(engine: TaskEngine, deps: ScanDeps, scanEnding: (folderPk: number) => void): void {
  const running = new Map<string, Promise<unknown>>();
  engine.register<ScanTaskData>('folder_scan', async (ctx) => {
    const id = ctx.data.folder_id;
    while (running.has(id)) await running.get(id)!.catch(() => undefined);
    const run = scanFolder(deps, ctx);
    running.set(id, run);
    try {
      return await run;
    } finally {
      running.delete(id);
      const folder = deps.store.folders.get(id);
      if (folder && !ctx.signal.aborted) scanEnding(folder.pk);
    }
  });
}
