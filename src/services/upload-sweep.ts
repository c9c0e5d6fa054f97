import { existsSync, readdirSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { TaskRepository } from '../store/tasks.js';

/**
 * Removes the upload files (`*.upload`) of the uploads folder that no task holds: what a request left when
 * the server was killed while it streamed the body (an orderly failure removes its own). Run at start,
 * before requests are served, so no upload is being written. Returns how many were removed.
 * @example
 * sweepUploads(store.tasks, uploadsDir(dataDir)); // 1 after a kill -9 during an upload
 */
export function sweepUploads(tasks: TaskRepository, uploadsFolder: string): number {
  if (!existsSync(uploadsFolder)) return 0;
  // Only the file name counts (as in uploadPath): no stored value points outside the folder.
  const held = new Set(tasks.uploadNames().map((name) => basename(name)));
  let removed = 0;
  for (const name of readdirSync(uploadsFolder)) {
    if (!name.endsWith('.upload') || held.has(name)) continue;
    rmSync(join(uploadsFolder, name), { force: true });
    removed++;
  }
  return removed;
}
