/**
 * Real media indexed into a collection through a folder, for the browser specs of the player, the grid
 * and share links: the files are made with ffmpeg (folder-media.ts) or copied from the test corpus.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { settledTask, type TestServer } from './server.js';

/** An item as the list endpoint returns it (the fields the specs read). */
export interface ListedItem { media_id: string; title: string; type: 'video' | 'audio' | 'image'; duration: number | null; folder_path?: string; thumbnail_url: string | null }

/**
 * Creates `collection`, lets `make` fill a new folder under the server's media root, binds the folder to
 * the collection and waits for its scan; returns the folder and the items, by title.
 * @example
 * const { items } = await indexedFolder(s, 'home', async (dir) => makePhoto(join(dir, 'sign.jpg'), 'BAKERY'));
 */
export async function indexedFolder(s: TestServer, collection: string, make: (dir: string) => Promise<void>): Promise<{ dir: string; items: Map<string, ListedItem> }> {
  expect((await s.call('POST', '/collections', { json: { collection_id: collection, name: collection } })).status).toBe(201);
  const dir = join(s.mediaDir, collection);
  mkdirSync(dir, { recursive: true });
  await make(dir);
  const folder = await s.call('POST', `/collections/${collection}/folders`, { json: { path: dir, recursive: true, watch: false } });
  expect(folder.status, JSON.stringify(folder.body)).toBe(201);
  const task = await settledTask(s, folder.body.scan_task_id, 240_000);
  expect(task.status, task.error?.message).toBe('completed');
  const list = await s.call('GET', `/collections/${collection}/items?limit=100`);
  return { dir, items: new Map((list.body.items as ListedItem[]).map((i) => [i.title, i])) };
}
