import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOcr } from '../../src/ml/ocr/index.js';
import { renderFile, renderFrame, scratchDir, type FrameSpec } from '../ml/fixtures.js';
import { makeVideo } from '../support/folder-media.js';
import { lavfiVideo } from '../support/picture-media.js';
import { settledTask, startTestServer, type TestServer } from '../support/server.js';
import { srt } from '../support/subtitled-media.js';

/**
 * Issue 34, through the server on real media: what explore, chapters and search show is content only.
 * No placeholder for a photo without text, no on-screen noise ("X", "一" read off stray marks), items named
 * by title and photos counted as photos, chapters without words named by what they are.
 */

/** A bakery sign: the words, and two stray marks OCR reads as one letter ("X") and as a CJK stroke ("一"). */
const SIGN: FrameSpec = {
  width: 1280, height: 720, background: 'navy',
  lines: [{ text: 'Apfelkuchen Rezept', size: 72 }, { text: 'x', size: 40, x: 80, y: 80 }, { text: 'x', size: 40, x: 1100, y: 600 }],
};
const ID = {
  sign: '6f1c2a54-0d7e-4b61-9a0e-2f4be1f0a001',
  blank: '6f1c2a54-0d7e-4b61-9a0e-2f4be1f0a002',
  cake: '6f1c2a54-0d7e-4b61-9a0e-2f4be1f0a003',
  memo: '6f1c2a54-0d7e-4b61-9a0e-2f4be1f0a004',
  walk: '6f1c2a54-0d7e-4b61-9a0e-2f4be1f0a005',
  shop: '6f1c2a54-0d7e-4b61-9a0e-2f4be1f0a006',
};
const PLACEHOLDER = /without recognised|ohne erkannten/i;

describe('explore, chapters and search speak of content only', () => {
  let s: TestServer;
  /** What OCR itself reads on the sign, before vidx turns it into on-screen text. */
  let rawSign: string[];

  async function index(collection: string, file: string, media_id: string, title: string, language: 'en' | 'de' = 'en') {
    const r = await s.call('POST', '/index', { form: { collection, index_language: language, video: { path: join(s.mediaDir, file), media_id, title } } });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    const t = await settledTask(s, r.body.task_id, 180_000);
    expect(t.status, t.error?.message).toBe('completed');
  }

  const analysis = async (collection: string, media: string) => (await s.call('GET', `/collections/${collection}/items/${media}/analysis`)).body;

  async function streamed<T>(path: string, body: unknown): Promise<T[]> {
    const r = await s.call('POST', path, { form: body, headers: { accept: 'application/x-ndjson' } });
    expect(r.status).toBe(200);
    const text = typeof r.body === 'string' ? r.body : `${JSON.stringify(r.body)}\n`;
    return text.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as T);
  }

  beforeAll(async () => {
    s = await startTestServer({ queryEmbedder: null });
    const dir = await scratchDir();
    const ocr = createOcr();
    try {
      rawSign = (await ocr.recognize(await renderFrame(dir.path, SIGN))).map((l) => l.text);
    } finally {
      await ocr.close();
      await dir.dispose();
    }
    const run = promisify(execFile);
    await renderFile(s.mediaDir, SIGN, 'sign.png');
    await renderFile(s.mediaDir, { width: 800, height: 600, background: 'black', source: 'mandelbrot', lines: [] }, 'blank.png');
    await makeVideo(join(s.mediaDir, 'cake.mp4'), 'Apfelkuchen', 3);
    await lavfiVideo(join(s.mediaDir, 'walk.mp4'), 'mandelbrot', 4);
    // A voice memo in which nothing is said: a tone, then a lower one.
    await run('ffmpeg', ['-hide_banner', '-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=14', '-f', 'lavfi', '-i', 'sine=frequency=220:duration=14',
      '-filter_complex', '[0:a][1:a]concat=n=2:v=0:a=1[a]', '-map', '[a]', '-c:a', 'aac', '-b:a', '64k', join(s.mediaDir, 'memo.m4a')]);
    // Said, not shown: a picture without text whose subtitles greet the guests.
    await lavfiVideo(join(s.mediaDir, 'shop.mp4'), 'mandelbrot', 6);
    await writeFile(join(s.mediaDir, 'shop.de.srt'), srt([[1, 4, 'Herzlich willkommen in der Bäckerei Müller.']]));

    for (const c of ['home', 'heim']) expect((await s.call('POST', '/collections', { json: { collection_id: c, name: c } })).status).toBe(201);
    await index('home', 'sign.png', ID.sign, 'Bakery sign');
    await index('home', 'blank.png', ID.blank, 'Garden photo');
    await index('home', 'cake.mp4', ID.cake, 'Baking video');
    await index('home', 'memo.m4a', ID.memo, 'Memo from Monday');
    await index('home', 'walk.mp4', ID.walk, 'Evening walk');
    await index('heim', 'memo.m4a', ID.memo, 'Memo vom Montag', 'de');
    await index('heim', 'blank.png', ID.blank, 'Gartenfoto', 'de');
    await index('heim', 'shop.mp4', ID.shop, 'Laden', 'de');
    await index('heim', 'cake.mp4', ID.cake, 'Backvideo', 'de');
  }, 600_000);
  afterAll(() => s?.close());

  it('keeps stray marks OCR reads on a photo out of its text, chapters, results and index', async () => {
    // The sign really makes OCR read noise: a single letter, and a character of another script.
    expect(rawSign, rawSign.join(' | ')).toContain('Apfelkuchen Rezept');
    expect(rawSign.some((t) => /^[\p{L}\p{N}]$/u.test(t.trim())), rawSign.join(' | ')).toBe(true);

    const a = await analysis('home', ID.sign);
    expect(a.episodes).toHaveLength(1);
    const [episode] = a.episodes;
    expect(episode.on_screen_text).toEqual(['Apfelkuchen Rezept']);
    for (const text of [a.video_summary, episode.summary, episode.title, ...episode.visual.map((v: { summary: string }) => v.summary)]) {
      expect(text).toContain('Apfelkuchen Rezept');
      expect(text).not.toMatch(/\bX\b|\p{Script=Han}/u);
    }
    const results = (await s.call('POST', '/search', { form: { collection: 'home', query: 'Apfelkuchen' } })).body.results as { media_id: string; content: string }[];
    const sign = results.find((r) => r.media_id === ID.sign);
    expect(sign?.content, JSON.stringify(results)).toContain('Apfelkuchen');
    expect(sign?.content).not.toMatch(/\bX\b|\p{Script=Han}/u);
    // The index holds the words only: the stored screen text of every episode is free of the marks.
    const stored = s.vidx.store.db.prepare('SELECT screen_text FROM episodes').all() as { screen_text: string }[];
    for (const r of stored) expect(r.screen_text).not.toMatch(/^X$|\p{Script=Han}/mu);
  });

  it('gives a photo without text no summary, and calls its chapter a photo', async () => {
    for (const [collection, name] of [['home', 'Photo'], ['heim', 'Foto']]) {
      const a = await analysis(collection, ID.blank);
      expect(a.video_summary).toBe('');
      expect(a.episodes.map((e: { summary: string; title: string }) => [e.summary, e.title])).toEqual([['', name]]);
    }
    const results = (await s.call('POST', '/search', { form: { collection: 'home', query: 'Garden photo' } })).body.results as { media_id: string; content: string }[];
    expect(results.map((r) => r.media_id), JSON.stringify(results)).toContain(ID.blank);
    for (const r of results) expect(r.content).not.toMatch(PLACEHOLDER);
  });

  it('names chapters without words by what they are, never by a bare time, in the language analysed', async () => {
    const named = async (collection: string, media: string) => (await analysis(collection, media)).episodes.map((e: { title: string }) => e.title) as string[];
    const memo = await named('home', ID.memo);
    expect(memo.length).toBeGreaterThanOrEqual(1);
    expect(memo).toEqual(memo.length === 1 ? ['Voice memo'] : memo.map((_, i) => `Voice memo, part ${i + 1}`));
    const memoDe = await named('heim', ID.memo);
    expect(memoDe).toEqual(memoDe.length === 1 ? ['Sprachmemo'] : memoDe.map((_, i) => `Sprachmemo, Teil ${i + 1}`));
    const walk = await named('home', ID.walk);
    expect(walk).toEqual(walk.length === 1 ? ['Evening walk'] : walk.map((_, i) => `Evening walk, part ${i + 1}`));
    for (const t of [...memo, ...memoDe, ...walk]) expect(t).not.toMatch(/^\d+:\d\d$/);

    // A share link names its chapters the same way.
    const share = await s.call('POST', `/collections/home/items/${ID.memo}/shares`, { json: { days: 1 } });
    expect(share.status, JSON.stringify(share.body)).toBe(201);
    const token = (share.body.url as string).match(/([A-Za-z0-9_-]{10,})\/?$/)?.[1];
    const shared = await s.call('GET', `/shared/${token}`, { key: null });
    expect(shared.status).toBe(200);
    expect(shared.body.chapters.map((c: { title: string }) => c.title)).toEqual(memo);
  });

  it('clusters name items by title, count photos as photos, and never show a placeholder or an id', async () => {
    const els = await streamed<{ answer: string; additional_info: string; related_queries: string[]; cluster_results: { media_id: string }[] }>('/search_clusters', { query: 'Apfelkuchen', collection: 'home' });
    expect(els.length).toBeGreaterThan(0);
    const all = els.map((e) => [e.answer, e.additional_info, ...e.related_queries].join(' | ')).join('\n');
    expect(all).not.toMatch(PLACEHOLDER);
    for (const id of Object.values(ID)) expect(all).not.toContain(id);
    const both = els.find((e) => new Set(e.cluster_results.map((r) => r.media_id)).size === 2);
    const info = both ? [both.additional_info] : els.map((e) => e.additional_info);
    if (both) expect(both.additional_info).toMatch(/^2 moments in 1 video and 1 photo: (Baking video 0:00, Bakery sign|Bakery sign, Baking video 0:00)$/);
    else expect(info.join('\n')).toMatch(/^1 photo: Bakery sign$/m);
    const de = await streamed<{ additional_info: string }>('/search_clusters', { query: 'Apfelkuchen', collection: 'home', search_language: 'de' });
    expect(de.map((e) => e.additional_info).join('\n')).toMatch(/Foto|Momente? in \d+ Videos?/);
  });

  it('suggests topics with content, asking what was said and what was shown', async () => {
    const els = await streamed<{ completion: { type: string; text: string } }>('/collection_suggestions', { collection: 'heim', search_language: 'de' });
    const texts = els.map((e) => e.completion.text);
    expect(texts.join(' | ')).not.toMatch(PLACEHOLDER);
    for (const bad of ['Bild', 'Text', 'Ni', 'Herzlich', 'Foto']) expect(texts.filter((t) => t === bad), texts.join(' | ')).toEqual([]);
    const question = (topic: RegExp) => {
      const i = els.findIndex((e) => e.completion.type === 'topic' && topic.test(e.completion.text));
      return i >= 0 ? els[i + 1].completion.text : undefined;
    };
    expect(question(/Bäckerei/) ?? texts.join(' | ')).toMatch(/^Was wird zu „Bäckerei[^“]*“ gesagt\?$/);
    expect(question(/Apfelkuchen/) ?? texts.join(' | ')).toMatch(/^Wann wird „Apfelkuchen[^“]*“ gezeigt\?$/);
  });
});
