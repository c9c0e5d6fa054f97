/**
 * Issue 34: a rescan's counts after a person deleted an item whose file is still in the folder (the Items or
 * Duplicates view). It said "unchanged 17" with 16 items left: now the deleted item is counted as removed,
 * its file as skipped with the reason, the rest as unchanged; the deletion sticks until the file changes. The
 * scan task keeps the file that failed in its result. A real server, real files, real ffmpeg.
 */
import { copyFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync, statSync, truncateSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agedFiles, makeVideo } from '../support/folder-media.js';
import { settledTask, startTestServer, type TestServer } from '../support/server.js';

describe('rescan counts after an item was deleted', () => {
  let s: TestServer;
  let media: string;
  let base: string;
  let folderId: string;

  const scan = async () => {
    const r = await s.call('POST', `/collections/home/folders/${folderId}/scan`);
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    const t = await settledTask(s, r.body.task_id, 180_000);
    expect(t.status, t.error?.message).toBe('completed');
    return t.result as Record<string, unknown>;
  };
  const titles = async () => ((await s.call('GET', '/collections/home/items?limit=100')).body.items as { title: string; media_id: string }[]);

  beforeAll(async () => {
    base = realpathSync(mkdtempSync(join(tmpdir(), 'vidx-rescan-')));
    media = join(base, 'media');
    mkdirSync(media, { recursive: true });
    await Promise.all([
      makeVideo(join(media, 'garden.mp4'), 'GARDEN', 1),
      makeVideo(join(media, 'kitchen.mp4'), 'KITCHEN', 1, {}, 'maroon'),
      makeVideo(join(media, 'copy.mp4'), 'COPY', 1, {}, 'green'),
    ]);
    copyFileSync(join(media, 'garden.mp4'), join(media, 'kaputt.mp4'));
    truncateSync(join(media, 'kaputt.mp4'), Math.floor(statSync(join(media, 'kaputt.mp4')).size / 3));
    agedFiles(media);
    s = await startTestServer({ env: { VIDX_MEDIA_ROOTS: media } });
    await s.call('POST', '/collections', { json: { collection_id: 'home', name: 'Home' } });
    const f = await s.call('POST', '/collections/home/folders', { json: { path: media, watch: false } });
    expect(f.status, JSON.stringify(f.body)).toBe(201);
    folderId = f.body.folder_id;
    const first = await settledTask(s, f.body.scan_task_id, 180_000);
    expect(first.status).toBe('completed');
    // The task's result names the file that failed: the page says "completed, 1 file failed" from it.
    expect(first.result).toMatchObject({ found: 4, added: 3, failed: [{ path: 'kaputt.mp4', code: expect.any(String) }] });
  }, 240_000);
  afterAll(async () => {
    await s?.close();
    rmSync(base, { recursive: true, force: true });
  });

  it('counts the deleted item as removed, its file as skipped, the others as unchanged', async () => {
    const copy = (await titles()).find((i) => i.title === 'copy')!;
    expect((await s.call('DELETE', `/collections/home/items/${copy.media_id}`)).status).toBe(200);
    const r = await scan();
    expect(r).toMatchObject({ found: 4, added: 0, changed: 0, removed: 1, unchanged: 2, skipped: 1 });
    expect(r.skipped_files).toEqual([{ path: 'copy.mp4', reason: expect.stringMatching(/deleted in vidx/), code: 'item_deleted' }]);
    expect(r.failed).toEqual([expect.objectContaining({ path: 'kaputt.mp4' })]);
    expect((await titles()).map((i) => i.title).sort()).toEqual(['garden', 'kitchen']);
  });

  it('keeps the deletion on the next scan, counted once', async () => {
    expect(await scan()).toMatchObject({ found: 4, removed: 0, unchanged: 2, skipped: 1, added: 0 });
    expect((await titles()).map((i) => i.title).sort()).toEqual(['garden', 'kitchen']);
  });

  it('indexes the file again once it changes', async () => {
    await makeVideo(join(media, 'copy.mp4'), 'COPY AGAIN', 1, {}, 'green');
    const old = new Date(Date.now() - 60_000);
    utimesSync(join(media, 'copy.mp4'), old, old);
    expect(await scan()).toMatchObject({ found: 4, removed: 0, unchanged: 2, skipped: 0, added: 1 });
    expect((await titles()).map((i) => i.title).sort()).toEqual(['copy', 'garden', 'kitchen']);
  }, 120_000);
});
