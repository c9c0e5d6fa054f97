/**
 * Issue 24: one bound for all heavy work, owners in turn, one scan per folder, and folders indexed in their
 * own language. Observed through what the server exposes: task states, `GET /health` work counts, the
 * folder's scan task and the stored analysis.
 */
import { copyFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureCorpus } from '../support/corpus.js';
import { agedFiles, makeVideo } from '../support/folder-media.js';
import { startTestApp } from '../support/app.js';
import { settledTask, waitFor, type TestServer } from '../support/server.js';

describe('heavy work: one bound, owners in turn, one scan per folder', () => {
  let s: TestServer;
  let base: string;
  const keys: Record<string, string> = {};

  const health = async () => (await s.call('GET', '/health', { key: null })).body.work as { limit: number; running: number; queued: number; peak: number; spare: number };
  const asOwner = (owner: string) => ({ key: keys[owner]! });

  beforeAll(async () => {
    base = realpathSync(mkdtempSync(join(tmpdir(), 'vidx-fair-')));
    for (const d of ['alice/big', 'alice/second', 'bob', 'carol/small']) mkdirSync(join(base, d), { recursive: true });
    const colours = ['navy', 'maroon', 'green', 'purple', 'teal'];
    await Promise.all([
      ...colours.map((c, i) => makeVideo(join(base, 'alice/big', `clip-${i}.mp4`), `ALICE ${i}`, 1, {}, c)),
      ...colours.slice(0, 2).map((c, i) => makeVideo(join(base, 'carol/small', `clip-${i}.mp4`), `CAROL ${i}`, 1, {}, c)),
      makeVideo(join(base, 'alice/second', 'one.mp4'), 'SECOND', 2),
      makeVideo(join(base, 'bob', 'upload.mp4'), 'BOB UPLOAD', 2, {}, 'darkred'),
    ]);
    // Older than the scan's stability wait, as an archive is.
    agedFiles(base);
    s = await startTestApp({ env: { VIDX_MEDIA_ROOTS: base, VIDX_TASK_CONCURRENCY: '1' } });
    for (const owner of ['alice', 'bob', 'carol']) {
      keys[owner] = await s.newKey();
      const r = await s.call('POST', '/collections', { ...asOwner(owner), json: { collection_id: `${owner}-home`, name: owner } });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
    }
  }, 180_000);
  afterAll(async () => {
    await s?.close();
    rmSync(base, { recursive: true, force: true });
  });

  it('gives another owner a turn during a long scan, and never runs more than the limit and its one spare slot', async () => {
    expect(await health()).toMatchObject({ limit: 1, running: 0, queued: 0, spare: 1 });
    const big = await s.call('POST', '/collections/alice-home/folders', { ...asOwner('alice'), json: { path: join(base, 'alice/big'), watch: false } });
    expect(big.status, JSON.stringify(big.body)).toBe(201);
    // A second owner's folder is scanned at the same time: scans do not bring slots of their own.
    const small = await s.call('POST', '/collections/carol-home/folders', { ...asOwner('carol'), json: { path: join(base, 'carol/small'), watch: false } });
    expect(small.status).toBe(201);
    const scanId = big.body.scan_task_id as string;
    await waitFor(async () => ((await s.call('GET', `/tasks/${scanId}`, asOwner('alice'))).body.step?.item?.n >= 1 ? true : undefined), 60_000, 'the scan to be on its first file');

    const index = await s.call('POST', '/index', { ...asOwner('bob'), json: { video: { path: join(base, 'bob/upload.mp4') }, collection: 'bob-home' } });
    expect(index.status).toBe(202);
    const bobTask = await settledTask(s, index.body.task_id, 120_000);
    expect(bobTask.status, bobTask.error?.message).toBe('completed');
    // Bob's one file was done while Alice's five-file scan was still under way.
    const scanWhenBobDone = (await s.call('GET', `/tasks/${scanId}`, asOwner('alice'))).body;
    expect(scanWhenBobDone.status).toBe('running');
    expect(scanWhenBobDone.step.item.n).toBeLessThan(5);

    const [aliceScan, carolScan] = await Promise.all([settledTask(s, scanId, 240_000), settledTask(s, small.body.scan_task_id, 240_000)]);
    expect(aliceScan.result).toMatchObject({ found: 5, added: 5, failed: [] });
    expect(carolScan.result).toMatchObject({ found: 2, added: 2 });
    // Three owners at once: Alice's file on the slot, Carol's or Bob's on the spare, never a third.
    expect(await health()).toEqual({ limit: 1, running: 0, queued: 0, peak: 2, spare: 1 });
  }, 300_000);

  it('scans a folder once at a time: requests during a scan bring exactly one rescan after it', async () => {
    const folder = await s.call('POST', '/collections/alice-home/folders', { ...asOwner('alice'), json: { path: join(base, 'alice/second'), watch: false } });
    const first = folder.body.scan_task_id as string;
    const path = `/collections/alice-home/folders/${folder.body.folder_id}`;
    await waitFor(async () => ((await s.call('GET', `/tasks/${first}`, asOwner('alice'))).body.status === 'running' ? true : undefined), 30_000, 'the first scan to run');
    // A file arrives, and the scan is asked for three times while the first one runs.
    copyFileSync(join(base, 'bob/upload.mp4'), join(base, 'alice/second', 'late.mp4'));
    for (let i = 0; i < 3; i++) {
      const r = await s.call('POST', `${path}/scan`, asOwner('alice'));
      expect(r.status).toBe(202);
      expect(r.body.task_id).toBe(first);
    }
    expect((await settledTask(s, first)).status).toBe('completed');
    const rescan = await waitFor(async () => {
      const id = (await s.call('GET', path, asOwner('alice'))).body.scan_task_id as string;
      return id !== first ? id : undefined;
    }, 30_000, 'the rescan');
    const second = await settledTask(s, rescan, 120_000);
    expect(second.status).toBe('completed');
    // The rescan found the file that came during the first scan (or, if the first saw it, nothing new).
    expect((second.result as { found: number }).found).toBe(2);
    await new Promise((r) => setTimeout(r, 500));
    const scans = (await s.call('GET', '/tasks?kind=folder_scan&limit=100', asOwner('alice'))).body.tasks as { id: string; endpoint: string }[];
    expect(scans.filter((t) => t.endpoint === `${path}/scan`).map((t) => t.id).sort()).toEqual([first, rescan].sort());
  }, 240_000);
});

describe('folders in their own language', () => {
  let s: TestServer;
  let base: string;

  beforeAll(async () => {
    const corpus = await ensureCorpus();
    base = realpathSync(mkdtempSync(join(tmpdir(), 'vidx-lang-')));
    for (const d of ['wetter', 'forced']) {
      mkdirSync(join(base, d));
      // The German video with its sidecars in German and English: the sound is tagged German.
      for (const f of ['german.mp4', 'german.de.srt', 'german.en.vtt']) copyFileSync(join(corpus.dir, f), join(base, d, f));
    }
    agedFiles(base);
    s = await startTestApp({ env: { VIDX_MEDIA_ROOTS: base } });
    await s.call('POST', '/collections', { json: { collection_id: 'home', name: 'Home' } });
  }, 180_000);
  afterAll(async () => {
    await s?.close();
    rmSync(base, { recursive: true, force: true });
  });

  const scanned = async (folder: string, language?: string) => {
    const r = await s.call('POST', '/collections/home/folders', { json: { path: join(base, folder), watch: false, ...(language ? { language } : {}) } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.language).toBe(language ?? null);
    const t = await settledTask(s, r.body.scan_task_id, 120_000);
    expect(t.status, t.error?.message).toBe('completed');
  };

  it('lets the media decide without a folder language: a German video is analysed as German', async () => {
    await scanned('wetter');
    const items = (await s.call('GET', '/collections/home/items?limit=100')).body.items as { media_id: string }[];
    expect(items).toHaveLength(1);
    const analysis = (await s.call('GET', `/collections/home/items/${items[0]!.media_id}/analysis`)).body;
    expect(analysis.language).toBe('de');
    const speech = analysis.episodes.flatMap((e: { audio: { text: string }[] }) => e.audio.map((a) => a.text)).join(' ');
    // The German sidecar, not the English translation.
    expect(speech).toMatch(/\b(und|der|die|das|ist|mit)\b/i);
  }, 180_000);

  it("uses the folder's language when it has one", async () => {
    await scanned('forced', 'en');
    const items = (await s.call('GET', '/collections/home/items?limit=100')).body.items as { media_id: string }[];
    const analyses = await Promise.all(items.map(async (i) => (await s.call('GET', `/collections/home/items/${i.media_id}/analysis`)).body.language as string));
    expect(analyses.sort()).toEqual(['de', 'en']);
    expect((await s.call('POST', '/collections/home/folders', { json: { path: join(base, 'forced'), language: 'fr' } })).status).toBe(422);
  }, 180_000);
});
