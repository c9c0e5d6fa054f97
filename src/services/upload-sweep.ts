import { basename } from 'node:path';
import type { Repos } from '../store/index.js';

/**
 * Removes the upload files (`*.upload`) of the uploads folder that no task holds: what a request left when
 * the server was killed while it streamed the body (an orderly failure removes its own). Run at start,
 * before requests are served, so no upload is being written. Returns how many were removed.
 * @example
 * sweepUploads(store); // 1 after a kill -9 during an upload
 */
export function sweepUploads(store: Repos<'storage' | 'tasks'>): number {
  // Only the file name counts (as in uploadPath): no stored value points outside the folder.
  const held = new Set(store.tasks.uploadNames().map((name) => basename(name)));
  let removed = 0;
  for (const name of store.storage.uploadNames()) {
    if (held.has(name)) continue;
    store.storage.removeUpload(name);
    removed++;
  }
  return removed;
}
