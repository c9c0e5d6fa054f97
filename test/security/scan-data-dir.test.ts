import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settledTask, startTestServer, type TestServer } from '../support/server.js';
import { textClip } from './media.js';

/**
 * Issue 21.4: with the data dir inside a media root (the default layout: media root = home, data dir =
 * ~/.local/share/vidx), a folder scan of the root never enters the data dir: other owners' kept copies and
 * links are not indexed again, nothing of it appears in the result, the scan never waits on the changing
 * WAL, and the watcher ignores what vidx writes there.
 */
describe('scans and watchers never walk vidx’s own data dir', () => {
  let home: string;
  let s: TestServer;
  let alice: string;
  let bob: string;

  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'vidx-home-'));
    const dataDir = join(home, '.local', 'share', 'vidx');
    mkdirSync(dataDir, { recursive: true });
    s = await startTestServer({ dataDir, env: { VIDX_MEDIA_ROOTS: home } });
    alice = await s.newKey();
    bob = await s.newKey();
    await textClip(join(home, 'Videos', 'beach.mp4'), 'BEACH');
    await textClip(join(home, 'private', 'alice.mp4'), 'ALICE');
    await s.call('POST', '/collections', { key: alice, json: { collection_id: 'alice', name: 'Alice' } });
    // Alice's kept link (indexed by path) and kept copy (uploaded) both live in the data dir.
    const byPath = await s.call('POST', '/index', { key: alice, form: { video: { path: join(home, 'private', 'alice.mp4'), media_id: 'alice-path' }, collection: 'alice' } });
    const fd = new FormData();
    fd.append('body', JSON.stringify({ video: { content: 'upload.mp4', media_id: 'alice-upload' }, collection: 'alice' }));
    fd.append('file', new Blob([readFileSync(join(home, 'Videos', 'beach.mp4'))]), 'upload.mp4');
    const upload = await fetch(`${s.url}/index`, { method: 'POST', headers: { 'x-api-key': alice }, body: fd });
    for (const id of [byPath.body.task_id, ((await upload.json()) as { task_id: string }).task_id]) {
      const t = await settledTask(s, id);
      expect(t.status, t.error?.message).toBe('completed');
    }
  }, 180_000);
  afterAll(async () => {
    await s.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('scans the whole home folder without a trace of the data dir, and the watcher ignores its changes', async () => {
    await s.call('POST', '/collections', { key: bob, json: { collection_id: 'bob', name: 'Bob' } });
    const added = await s.call('POST', '/collections/bob/folders', { key: bob, form: { path: home, watch: true } });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    const scan = await settledTask(s, added.body.scan_task_id, 60_000);
    expect(scan.status, scan.error?.message).toBe('completed');
    const result = scan.result as { found: number; added: number; skipped_files: { path: string }[]; failed: { path: string }[] };
    const said = JSON.stringify(result);
    expect(said).not.toMatch(/\.local|link\.secret|vidx\.db|alice-path|alice-upload|collections\//);
    expect(result).toMatchObject({ found: 2, added: 2, skipped_files: [], failed: [] });
    const items = (await s.call('GET', '/collections/bob/items', { key: bob })).body.items as { media_id: string }[];
    expect(items).toHaveLength(2);

    // vidx writes into its data dir (another upload, the WAL): no scan of Bob's folder follows.
    const tasksBefore = (await s.call('GET', '/tasks', { key: bob })).body.total;
    const fd = new FormData();
    fd.append('body', JSON.stringify({ video: { content: 'again.mp4', media_id: 'alice-again' }, collection: 'alice' }));
    fd.append('file', new Blob([readFileSync(join(home, 'private', 'alice.mp4'))]), 'again.mp4');
    const again = await fetch(`${s.url}/index`, { method: 'POST', headers: { 'x-api-key': alice }, body: fd });
    expect((await settledTask(s, ((await again.json()) as { task_id: string }).task_id)).status).toBe('completed');
    await new Promise((r) => setTimeout(r, 3_000)); // longer than the watcher's debounce (1.5 s)
    expect((await s.call('GET', '/tasks', { key: bob })).body.total).toBe(tasksBefore);
  });

  it('refuses a folder or a path inside the data dir as media', async () => {
    const folder = await s.call('POST', '/collections/bob/folders', { key: bob, form: { path: join(home, '.local', 'share', 'vidx', 'collections') } });
    expect(folder.status).toBe(422);
    expect(folder.body.detail).toMatch(/inside vidx's own data folder/);
    const path = await s.call('POST', '/analyze', { key: bob, form: { video: { path: join(home, '.local', 'share', 'vidx', 'link.secret') } } });
    expect(path.status).toBe(422);
  });
});
