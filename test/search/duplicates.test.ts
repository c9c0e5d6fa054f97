/**
 * Issue 26: duplicates across a collection without any model. Re-encoded, rescaled and trimmed copies of
 * lavfi videos group with their original, near-identical photos group, slide videos of one template with
 * other words stay apart, the best copy is named, and the groups follow items as they are indexed and deleted.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyVideo, lavfiVideo, photo, slideVideo } from '../support/picture-media.js';
import { agedFiles } from '../support/folder-media.js';
import { startTestApp } from '../support/app.js';
import { settledTask, type TestServer } from '../support/server.js';

interface Group { items: { media_id: string; title: string; width: number; height: number; size: number; duration: number; overlap: number }[]; similarity: number; keep: string; keep_reason: string }

describe('GET /collections/{id}/duplicates', () => {
  let s: TestServer;
  let base: string;
  let media: string;
  const ids = new Map<string, string>();
  const titleOf = (id: string) => [...ids.entries()].find(([, v]) => v === id)?.[0];
  const groups = async (query = '') => {
    const r = await s.call('GET', `/collections/home/duplicates${query}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.groups as Group[];
  };
  const titlesOf = (gs: Group[]) => gs.map((g) => g.items.map((i) => i.title).sort()).sort((a, b) => a[0]!.localeCompare(b[0]!));

  beforeAll(async () => {
    base = realpathSync(mkdtempSync(join(tmpdir(), 'vidx-duplicates-')));
    media = join(base, 'media');
    mkdirSync(media);
    const at = (name: string) => join(media, name);
    await Promise.all([lavfiVideo(at('mandelbrot.mp4'), 'mandelbrot', 12), lavfiVideo(at('life.mp4'), 'life', 12), lavfiVideo(at('testsrc.mp4'), 'testsrc2', 12)]);
    await Promise.all([
      copyVideo(at('mandelbrot.mp4'), at('mandelbrot-lowq.mp4'), { crf: 38 }),
      copyVideo(at('mandelbrot.mp4'), at('mandelbrot-small.mp4'), { width: 320 }),
      copyVideo(at('mandelbrot.mp4'), at('mandelbrot-trim.mp4'), { from: 3.3, to: 11 }),
      copyVideo(at('life.mp4'), at('life-trim.mp4'), { from: 4, to: 12 }),
      copyVideo(at('testsrc.mp4'), at('testsrc-small.mp4'), { width: 320, crf: 30 }),
      copyVideo(at('testsrc.mp4'), at('testsrc-trim.mp4'), { from: 2.3, to: 10 }),
      slideVideo(at('deck-a.mp4'), ['Quarterly results', 'Sales by region'], 5),
      slideVideo(at('deck-b.mp4'), ['Team offsite plans', 'Budget review 2025'], 5),
      photo('astronaut.png', at('astronaut.jpg')),
      photo('astronaut.png', at('astronaut-small.jpg'), { width: 256, quality: 40 }),
      photo('chelsea.png', at('cat.jpg')),
      photo('coffee.png', at('coffee.jpg')),
    ]);
    s = await startTestApp({ env: { VIDX_MEDIA_ROOTS: base } });
    await s.call('POST', '/collections', { json: { collection_id: 'home', name: 'Home' } });
    agedFiles(media);
    const f = await s.call('POST', '/collections/home/folders', { json: { path: media, watch: false } });
    const scan = await settledTask(s, f.body.scan_task_id, 300_000);
    expect(scan.status, scan.error?.message).toBe('completed');
    for (const item of (await s.call('GET', '/collections/home/items?limit=100')).body.items as { media_id: string; title: string }[]) ids.set(item.title, item.media_id);
    expect(ids.size).toBe(15);
  }, 400_000);
  afterAll(async () => {
    await s?.close();
    rmSync(base, { recursive: true, force: true });
  });

  it('groups re-encoded, rescaled and trimmed copies and near-identical photos; keeps look-alike slides apart', async () => {
    expect(titlesOf(await groups())).toEqual([
      ['astronaut', 'astronaut-small'],
      ['life', 'life-trim'],
      ['mandelbrot', 'mandelbrot-lowq', 'mandelbrot-small', 'mandelbrot-trim'],
      ['testsrc', 'testsrc-small', 'testsrc-trim'],
    ]);
  });

  it('names the best copy and says how much of each the others show', async () => {
    const all = await groups();
    const mandelbrot = all.find((g) => g.items.some((i) => i.title === 'mandelbrot'))!;
    expect(titleOf(mandelbrot.keep)).toBe('mandelbrot');
    expect(mandelbrot.items[0]!.title).toBe('mandelbrot');
    // The next-best copy is as long and as large: it lost on bitrate; the trim comes last.
    expect(mandelbrot.keep_reason).toBe('higher_bitrate');
    expect(mandelbrot.items.at(-1)!.title).toBe('mandelbrot-trim');
    const life = all.find((g) => g.items.some((i) => i.title === 'life'))!;
    expect(titleOf(life.keep)).toBe('life');
    expect(life.keep_reason).toBe('longest');
    expect(mandelbrot.similarity).toBeGreaterThan(0.9);
    const original = mandelbrot.items.find((i) => i.title === 'mandelbrot')!;
    expect(original).toMatchObject({ width: 640, height: 360 });
    expect(original.size).toBeGreaterThan(0);
    expect(mandelbrot.items.find((i) => i.title === 'mandelbrot-small')).toMatchObject({ width: 320, height: 180 });
    // The trimmed copy is all original; the original is only partly in the trimmed copy.
    expect(mandelbrot.items.find((i) => i.title === 'mandelbrot-trim')!.overlap).toBeGreaterThan(0.9);
    const astronaut = all.find((g) => g.items.some((i) => i.title === 'astronaut'))!;
    expect(titleOf(astronaut.keep)).toBe('astronaut');
    // The strictest threshold keeps only pairs whose every frame matches (a stream-copied
    // trim can); a re-compressed photo never is one.
    const strict = await groups('?threshold=1');
    for (const g of strict) expect(g.similarity).toBe(1);
    expect(titlesOf(strict).map((g) => g[0])).not.toContain('astronaut');
    expect(strict.length).toBeLessThan(all.length);
    expect((await s.call('GET', '/collections/home/duplicates?threshold=2')).status).toBe(422);
  });

  it('follows the collection: a deleted copy leaves its group, a new copy joins', async () => {
    expect((await s.call('DELETE', `/collections/home/items/${ids.get('astronaut-small')}`)).status).toBe(200);
    expect(titlesOf(await groups()).map((g) => g[0])).not.toContain('astronaut');
    await copyVideo(join(media, 'life.mp4'), join(base, 'life-copy.mp4'), { width: 480, crf: 32 });
    const r = await s.call('POST', '/index', { json: { collection: 'home', video: { path: join(base, 'life-copy.mp4'), title: 'life-copy' } } });
    expect(r.status).toBe(202);
    expect((await settledTask(s, r.body.task_id)).status).toBe('completed');
    expect(titlesOf(await groups())).toContainEqual(['life', 'life-copy', 'life-trim']);
  });

  it('keeps a group through a re-index of its items (each re-index stores the item anew)', async () => {
    const r = await s.call('POST', '/collections/home/reindex', { json: { media_ids: [ids.get('mandelbrot'), ids.get('mandelbrot-small')] } });
    const t = await settledTask(s, r.body.task_id, 120_000);
    expect(t.result).toMatchObject({ reindexed: 2, failed: [] });
    expect(titlesOf(await groups())).toContainEqual(['mandelbrot', 'mandelbrot-lowq', 'mandelbrot-small', 'mandelbrot-trim']);
  });

  it('answers 404 for a collection the key cannot read', async () => {
    const other = await s.newKey();
    expect((await s.call('GET', '/collections/home/duplicates', { key: other })).status).toBe(404);
  });
});
