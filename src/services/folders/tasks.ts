import type { TaskEngine } from '../task-engine.js';
import { scanFolder, type ScanDeps, type ScanTaskData } from './scan.js';

/**
 * Registers the folder scan task. Scans of one folder never overlap (a second one waits for the first),
 * whatever the task concurrency.
 * @example
 * registerScanTask(engine, scanDeps);
 */
export function registerScanTask(engine: TaskEngine, deps: ScanDeps): void {
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
    }
  });
}
