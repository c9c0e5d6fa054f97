/**
 * Issue 26: search by what you see, with no model installed. A picture (a file part of a multipart
 * POST /search named by `image`) finds the moment it shows; `like` finds moments like one of the collection
 * and never itself; text and picture fuse; filters apply; bad input is a clear 4xx.
 */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyVideo, lavfiVideo, photo, screenshot, slideVideo } from '../support/picture-media.js';
import { agedFiles } from '../support/folder-media.js';
import { ON_THREADS, settledTask, startTestServer, type TestServer } from '../support/server.js';

interface Hit { media_id: string; start_time: number; end_time: number; score: number; copies?: { media_id: string; start_time: number }[] }

describe('POST /search by picture, without models', () => {
  let s: TestServer;
  let base: string;
  const ids = new Map<string, string>();
  const title = (mediaId: string) => [...ids.entries()].find(([, id]) => id === mediaId)?.[0];

  const searchWith = async (body: Record<string, unknown>, file?: { path: string; name: string }) => {
    const form = new FormData();
    form.set('body', JSON.stringify({ collection: 'home', ...body }));
    if (file) form.set('file', new Blob([readFileSync(file.path)]), file.name);
    const res = await fetch(`${s.url}/search`, { method: 'POST', headers: { 'x-api-key': s.adminKey }, body: form });
    return { status: res.status, body: (await res.json()) as { results: Hit[]; detail?: string; errors?: { field: string }[] } };
  };

  beforeAll(async () => {
    base = realpathSync(mkdtempSync(join(tmpdir(), 'vidx-picture-')));
    const media = join(base, 'media');
    const queries = join(base, 'queries');
    mkdirSync(media);
    mkdirSync(queries);
    await Promise.all([lavfiVideo(join(media, 'mandelbrot.mp4'), 'mandelbrot', 8), lavfiVideo(join(media, 'life.mp4'), 'life', 8), lavfiVideo(join(media, 'testsrc.mp4'), 'testsrc2', 8)]);
    // Keyframes of an 8 s shot are at 1 s and 5 s: the testsrc screenshot is one of them, the mandelbrot one lies
    // between them (the zoom changes slowly, so the nearest keyframe still looks alike).
    await Promise.all([
      copyVideo(join(media, 'mandelbrot.mp4'), join(media, 'mandelbrot-small.mp4'), { width: 320, crf: 35 }),
      slideVideo(join(media, 'quarterly.mp4'), ['Quarterly results', 'Sales by region'], 5),
      photo('astronaut.png', join(media, 'astronaut.jpg')),
      photo('chelsea.png', join(media, 'cat.jpg')),
      photo('coffee.png', join(media, 'coffee.jpg')),
      screenshot(join(media, 'testsrc.mp4'), 5, join(queries, 'testsrc-shot.jpg'), 300),
      photo('astronaut.png', join(queries, 'astronaut-small.jpg'), { width: 200, quality: 40 }),
      screenshot(join(media, 'mandelbrot.mp4'), 3, join(queries, 'mandelbrot-shot.jpg'), 480),
    ]);
    writeFileSync(join(queries, 'not-a-picture.jpg'), 'this is text, not a JPEG');
    // Pictures are analysed in the thread, as production does.
    s = await startTestServer({ env: { ...ON_THREADS, VIDX_MEDIA_ROOTS: media } });
    await s.call('POST', '/collections', { json: { collection_id: 'home', name: 'Home' } });
    agedFiles(media);
    const f = await s.call('POST', '/collections/home/folders', { json: { path: media, watch: false } });
    const scan = await settledTask(s, f.body.scan_task_id, 240_000);
    expect(scan.status, scan.error?.message).toBe('completed');
    for (const item of (await s.call('GET', '/collections/home/items?limit=100')).body.items as { media_id: string; title: string }[]) ids.set(item.title, item.media_id);
    expect(ids.size).toBe(8);
  }, 300_000);
  afterAll(async () => {
    await s?.close();
    rmSync(base, { recursive: true, force: true });
  });

  it('finds the moment a screenshot shows, and a photo from a smaller, recompressed copy', async () => {
    const shot = await searchWith({ image: 'testsrc-shot.jpg' }, { path: join(base, 'queries', 'testsrc-shot.jpg'), name: 'testsrc-shot.jpg' });
    expect(shot.status, JSON.stringify(shot.body)).toBe(200);
    expect(title(shot.body.results[0]!.media_id)).toBe('testsrc');
    // The matching frame is a keyframe after the 5 s mark, not the start of the video.
    expect(shot.body.results[0]!.start_time).toBeGreaterThan(3);
    const between = await searchWith({ image: 'm.jpg' }, { path: join(base, 'queries', 'mandelbrot-shot.jpg'), name: 'm.jpg' });
    // The copy shows the same moment: one result, the original's, that names the copy (issue 42).
    expect(title(between.body.results[0]!.media_id)).toBe('mandelbrot');
    expect(between.body.results[0]!.copies?.map((c) => title(c.media_id))).toEqual(['mandelbrot-small']);
    expect(between.body.results.map((r) => title(r.media_id))).not.toContain('mandelbrot-small');
    const astronaut = await searchWith({ image: 'q' }, { path: join(base, 'queries', 'astronaut-small.jpg'), name: 'q' });
    expect(astronaut.status, JSON.stringify(astronaut.body)).toBe(200);
    expect(title(astronaut.body.results[0]!.media_id)).toBe('astronaut');
    expect(astronaut.body.results.map((r) => title(r.media_id))).not.toContain('cat');
  });

  it('is no semantic search without a model: a mirrored screenshot finds nothing', async () => {
    const mirrored = join(base, 'queries', 'mirrored.jpg');
    await sharp(join(base, 'queries', 'testsrc-shot.jpg')).flop().toFile(mirrored);
    const r = await searchWith({ image: 'm.jpg', media_id: ids.get('testsrc') }, { path: mirrored, name: 'm.jpg' });
    expect(r.status).toBe(200);
    expect(r.body.results).toEqual([]);
  });

  it('applies the filters: only pictures, only one item', async () => {
    const images = await searchWith({ image: 'q', media_type: 'image' }, { path: join(base, 'queries', 'testsrc-shot.jpg'), name: 'q' });
    expect(images.status).toBe(200);
    expect(images.body.results.every((r) => ['astronaut', 'cat', 'coffee'].includes(title(r.media_id)!))).toBe(true);
    const one = await searchWith({ image: 'q', media_id: ids.get('life') }, { path: join(base, 'queries', 'testsrc-shot.jpg'), name: 'q' });
    expect(one.body.results.every((r) => r.media_id === ids.get('life'))).toBe(true);
  });

  it('finds more like a moment: its copies, never the moment itself', async () => {
    const like = { media_id: ids.get('mandelbrot')!, start_time: 1 };
    const r = await s.call('POST', '/search', { json: { collection: 'home', like } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const hits = r.body.results as Hit[];
    expect(title(hits[0]!.media_id)).toBe('mandelbrot-small');
    expect(hits.some((h) => h.media_id === like.media_id && h.start_time <= 1 && h.end_time > 1)).toBe(false);
  });

  it('fuses words with a picture: the slide that says them and looks like it comes first', async () => {
    const shot = join(base, 'queries', 'slide.jpg');
    await screenshot(join(base, 'media', 'quarterly.mp4'), 2, shot, 320);
    const r = await searchWith({ query: 'sales region', image: 'slide.jpg' }, { path: shot, name: 'slide.jpg' });
    expect(r.status).toBe(200);
    expect(title(r.body.results[0]!.media_id)).toBe('quarterly');
    const both = r.body.results.filter((h) => title(h.media_id) === 'quarterly');
    expect(both.length).toBeGreaterThanOrEqual(1);
  });

  it('answers bad input with a 4xx that names the field', async () => {
    const undecodable = await searchWith({ image: 'not-a-picture.jpg' }, { path: join(base, 'queries', 'not-a-picture.jpg'), name: 'not-a-picture.jpg' });
    expect(undecodable.status).toBe(422);
    expect(undecodable.body.errors?.[0]?.field).toBe('image');
    const unnamed = await s.call('POST', '/search', { json: { collection: 'home', image: 'nothing.jpg' } });
    expect(unnamed.status).toBe(422);
    expect(unnamed.body.detail).toMatch(/image: names no file part/);
    const nothing = await s.call('POST', '/search', { json: { collection: 'home' } });
    expect(nothing.status).toBe(422);
    expect(nothing.body.detail).toMatch(/query, image, like or speaker/);
    expect((await s.call('POST', '/search', { json: { collection: 'home', like: { media_id: 'no-such-item', start_time: 0 } } })).status).toBe(404);
    const outside = await s.call('POST', '/search', { json: { collection: 'home', like: { media_id: ids.get('life'), start_time: 999 } } });
    expect(outside.status).toBe(422);
    expect(outside.body.errors?.[0]?.field).toBe('like.start_time');
    // An endpoint that takes no uploads refuses a picture part.
    const form = new FormData();
    form.set('body', JSON.stringify({ collection: 'home', query: 'x' }));
    form.set('file', new Blob([readFileSync(join(base, 'queries', 'astronaut-small.jpg'))]), 'a.jpg');
    const clusters = await fetch(`${s.url}/search_clusters`, { method: 'POST', headers: { 'x-api-key': s.adminKey }, body: form });
    expect(clusters.status).toBe(422);
  });

  it('says in /health that picture search runs on fingerprints, and whether the image-text model adds to it', async () => {
    const health = (await s.call('GET', '/health', { key: null })).body;
    expect(health.picture_search).toEqual({ fingerprints: true, image_text: false });
  });
});
