import { spawnVidx } from '../support/spawn-server.js';
import { appendFileSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, startTestServer, waitFor, type TestServer } from '../support/server.js';
import { makeVideo } from '../support/folder-media.js';

// Four clips: two are indexed before a cancel or a kill, two after.
const words = ['ALPHA', 'BRAVO', 'CHARLIE', 'DELTA'];

describe('watched folders, files still being written, cancel and kill -9', () => {
  let base: string;
  let clips: string;

  beforeAll(async () => {
    base = realpathSync(mkdtempSync(join(tmpdir(), 'vidx-watch-')));
    clips = join(base, 'clips');
    mkdirSync(clips);
    for (let i = 0; i < words.length; i += 2) {
      await Promise.all(words.slice(i, i + 2).map((w, j) => makeVideo(join(clips, `${w.toLowerCase()}.mp4`), w, 3, {}, ['navy', 'maroon', 'green', 'purple'][i + j])));
    }
  }, 120_000);
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  const finished = (s: TestServer, id: string) =>
    waitFor(async () => {
      const t = (await s.call('GET', `/tasks/${id}`)).body;
      return t.status === 'completed' || t.status === 'failed' ? t : undefined;
    }, 180_000, `task ${id}`);
  const mediaIds = async (s: TestServer, c: string) => ((await s.call('GET', `/collections/${c}/items?limit=100`)).body.items as { media_id: string }[]).map((i) => i.media_id).sort();

  it('picks up added and deleted files of a watched folder without a scan call', async () => {
    const dir = join(base, 'watched');
    mkdirSync(dir);
    const s = await startTestServer({ env: { VIDX_MEDIA_ROOTS: base } });
    try {
      await s.call('POST', '/collections', { json: { collection_id: 'w', name: 'W' } });
      const f = await s.call('POST', '/collections/w/folders', { json: { path: dir } });
      expect(f.status).toBe(201);
      expect(f.body.watch).toBe(true);
      await finished(s, f.body.scan_task_id);
      expect(await mediaIds(s, 'w')).toEqual([]);
      copyFileSync(join(clips, 'alpha.mp4'), join(dir, 'alpha.mp4'));
      await waitFor(async () => ((await mediaIds(s, 'w')).length === 1 ? true : undefined), 60_000, 'the added file to be indexed');
      const hit = await s.call('POST', '/search', { json: { query: 'alpha', collection: 'w' } });
      expect(hit.body.results.length).toBeGreaterThan(0);
      rmSync(join(dir, 'alpha.mp4'));
      await waitFor(async () => ((await mediaIds(s, 'w')).length === 0 ? true : undefined), 60_000, 'the deleted file to leave');
    } finally {
      await s.close();
    }
  }, 200_000);

  it('waits for a file that is still being written and indexes it whole', async () => {
    const dir = join(base, 'growing');
    mkdirSync(dir);
    const s = await startTestServer({ env: { VIDX_MEDIA_ROOTS: base } });
    try {
      await s.call('POST', '/collections', { json: { collection_id: 'g', name: 'G' } });
      const bytes = readFileSync(join(clips, 'bravo.mp4'));
      const target = join(dir, 'bravo.mp4');
      writeFileSync(target, bytes.subarray(0, 1000));
      const f = await s.call('POST', '/collections/g/folders', { json: { path: dir, watch: false } });
      // Keep writing for a while after the scan started; the rest lands in ten pieces.
      const step = Math.ceil((bytes.length - 1000) / 10);
      for (let at = 1000; at < bytes.length; at += step) {
        await new Promise((r) => setTimeout(r, 300));
        appendFileSync(target, bytes.subarray(at, Math.min(bytes.length, at + step)));
      }
      const t = await finished(s, f.body.scan_task_id);
      expect(t.status, t.error?.message).toBe('completed');
      expect(t.result).toMatchObject({ added: 1, failed: [] });
      const [id] = await mediaIds(s, 'g');
      const item = (await s.call('GET', `/collections/g/items/${id}`)).body;
      expect(item.duration).toBeGreaterThan(2.5);
    } finally {
      await s.close();
    }
  }, 200_000);

  it('a cancelled scan keeps what it finished; the next scan goes on without redoing it', async () => {
    const s = await startTestServer({ env: { VIDX_MEDIA_ROOTS: base } });
    try {
      await s.call('POST', '/collections', { json: { collection_id: 'c', name: 'C' } });
      const f = await s.call('POST', '/collections/c/folders', { json: { path: clips, watch: false } });
      await waitFor(async () => ((await mediaIds(s, 'c')).length >= 2 ? true : undefined), 120_000, 'two files indexed');
      expect((await s.call('DELETE', `/tasks/${f.body.scan_task_id}`)).status).toBe(200);
      const kept = await mediaIds(s, 'c');
      expect(kept.length).toBeGreaterThanOrEqual(2);
      const r = await s.call('POST', `/collections/c/folders/${f.body.folder_id}/scan`);
      const t = await finished(s, r.body.task_id);
      expect(t.status, t.error?.message).toBe('completed');
      expect(t.result.unchanged).toBeGreaterThanOrEqual(kept.length - 1);
      expect(t.result.added + t.result.unchanged + t.result.changed).toBe(words.length);
      const all = await mediaIds(s, 'c');
      expect(all).toHaveLength(words.length);
      for (const id of kept) expect(all).toContain(id);
    } finally {
      await s.close();
    }
  }, 300_000);

  it('resumes a scan after kill -9 without redoing finished files', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'vidx-scan-crash-'));
    const { child, url, exited } = await spawnVidx('test/support/child-server.ts', { VIDX_DATA_DIR: dataDir, VIDX_ADMIN_KEY: ADMIN_KEY, VIDX_MEDIA_ROOTS: base });
    const h = { 'x-api-key': ADMIN_KEY, 'content-type': 'application/json' };
    const call = async (method: string, path: string, body?: unknown) => (await fetch(`${url}${path}`, { method, headers: h, body: body ? JSON.stringify(body) : undefined })).json() as Promise<any>; // any: the test reads fields directly and a wrong guess fails an assertion
    await call('POST', '/collections', { collection_id: 'k', name: 'K' });
    const f = await call('POST', '/collections/k/folders', { path: clips, watch: false });
    await waitFor(async () => ((await call('GET', '/collections/k/items?limit=100')).items.length >= 2 ? true : undefined), 120_000, 'two files indexed');
    child.kill('SIGKILL');
    await exited;

    const s = await startTestServer({ dataDir, env: { VIDX_MEDIA_ROOTS: base } });
    try {
      const before = await mediaIds(s, 'k');
      expect(before.length).toBeGreaterThanOrEqual(2);
      const t = await finished(s, f.scan_task_id);
      expect(t.status, t.error?.message).toBe('completed');
      expect(t.attempts).toBe(2);
      // Finished files are found unchanged; at most the one being stored at the kill is done again.
      expect(t.result.unchanged).toBeGreaterThanOrEqual(before.length - 1);
      expect(t.result.added + t.result.unchanged + t.result.changed).toBe(words.length);
      const after = await mediaIds(s, 'k');
      expect(after).toHaveLength(words.length);
      for (const id of before) expect(after).toContain(id);
    } finally {
      await s.close();
    }
  }, 300_000);
});
