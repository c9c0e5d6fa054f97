import { mkdirSync, readFileSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePhoto, makeSpeech, makeVideo } from '../support/folder-media.js';
import { settledTask, startTestServer, type TestServer } from '../support/server.js';

/** A local clock time as the server reads a name's time (its own zone). */
const local = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0, ms = 0): string => new Date(y, mo - 1, d, h, mi, s, ms).toISOString();

/**
 * Issue 31: dates that only a file's name states (WhatsApp, Android cameras, screenshots) date the item
 * with captured_at_source `filename`; a date the content states wins over them, and they win over file dates.
 */
describe('dates from file names, by path and by upload', () => {
  let s: TestServer;
  let user: string;

  const index = async (video: Record<string, unknown>) => {
    const r = await s.call('POST', '/index', { key: user, form: { video, collection: 'roll' } });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    return settledTask(s, r.body.task_id);
  };
  const upload = async (name: string, file: string, video: Record<string, unknown>) => {
    const fd = new FormData();
    fd.append('body', JSON.stringify({ collection: 'roll', video: { content: name, ...video } }));
    fd.append('file', new Blob([new Uint8Array(readFileSync(file))]), name);
    const r = await fetch(`${s.url}/index`, { method: 'POST', headers: { 'x-api-key': user }, body: fd });
    expect(r.status).toBe(202);
    return settledTask(s, ((await r.json()) as { task_id: string }).task_id);
  };
  const dateOf = async (mediaId: string) => {
    const b = (await s.call('GET', `/collections/roll/items/${mediaId}`, { key: user })).body as { captured_at: string | null; captured_at_source: string | null };
    return { captured_at: b.captured_at, captured_at_source: b.captured_at_source };
  };

  beforeAll(async () => {
    s = await startTestServer({ queryEmbedder: null });
    user = await s.newKey();
    await s.call('POST', '/collections', { key: user, json: { collection_id: 'roll', name: 'Camera roll' } });
    // lavfi input: no container date is written (the same as -map_metadata -1 on a real file).
    await makeVideo(join(s.mediaDir, 'VID-20190714-WA0003.mp4'), 'Whats');
    await makeVideo(join(s.mediaDir, 'IMG_20991314_093012.mp4'), 'Bad');
    await makeVideo(join(s.mediaDir, 'plain.mp4'), 'Plain');
    await makeVideo(join(s.mediaDir, 'stated.mp4'), 'Stated', 2, { creation_time: '2021-06-01T10:00:00Z' });
    await makePhoto(join(s.mediaDir, 'Bildschirmfoto 2023-10-05 um 14.32.11.jpg'), 'Foto');
    // A copy's file date is the day it was copied: the name must win over it.
    const copied = new Date('2024-03-01T08:00:00Z');
    for (const f of ['VID-20190714-WA0003.mp4', 'IMG_20991314_093012.mp4', 'Bildschirmfoto 2023-10-05 um 14.32.11.jpg']) utimesSync(join(s.mediaDir, f), copied, copied);
  }, 120_000);
  afterAll(async () => {
    await s.close();
  });

  it('by path: a WhatsApp or screenshot name dates the item over the file date; an impossible name date is ignored', async () => {
    expect((await index({ path: join(s.mediaDir, 'VID-20190714-WA0003.mp4'), media_id: 'wa' })).status).toBe('completed');
    expect(await dateOf('wa')).toEqual({ captured_at: local(2019, 7, 14), captured_at_source: 'filename' });
    expect((await index({ path: join(s.mediaDir, 'Bildschirmfoto 2023-10-05 um 14.32.11.jpg'), media_id: 'shot' })).status).toBe('completed');
    expect(await dateOf('shot')).toEqual({ captured_at: local(2023, 10, 5, 14, 32, 11), captured_at_source: 'filename' });
    expect((await index({ path: join(s.mediaDir, 'IMG_20991314_093012.mp4'), media_id: 'bad' })).status).toBe('completed');
    expect(await dateOf('bad')).toEqual({ captured_at: '2024-03-01T08:00:00.000Z', captured_at_source: 'file' });
  });

  it('by upload: the name wins over the caller’s file_modified_at; a date the container states wins over the name', async () => {
    const named = await upload('PXL_20210801_100000123.mp4', join(s.mediaDir, 'plain.mp4'), { media_id: 'pxl', file_modified_at: '2024-02-02T02:02:02Z' });
    expect(named.status, named.error?.message).toBe('completed');
    expect(await dateOf('pxl')).toEqual({ captured_at: local(2021, 8, 1, 10, 0, 0, 123), captured_at_source: 'filename' });
    const stated = await upload('IMG_20190714_093012.mp4', join(s.mediaDir, 'stated.mp4'), { media_id: 'stated', file_modified_at: '2024-02-02T02:02:02Z' });
    expect(stated.status, stated.error?.message).toBe('completed');
    expect(await dateOf('stated')).toEqual({ captured_at: '2021-06-01T10:00:00.000Z', captured_at_source: 'metadata' });
    const none = await upload('Screen Recording 2023-10-05 at 14.32.11.mp4', join(s.mediaDir, 'plain.mp4'), { media_id: 'rec' });
    expect(none.status, none.error?.message).toBe('completed');
    expect(await dateOf('rec')).toEqual({ captured_at: local(2023, 10, 5, 14, 32, 11), captured_at_source: 'filename' });
  });

  it('a re-indexed upload keeps its name date (the copy is stored under another name; its title keeps the name)', async () => {
    const r = await s.call('POST', '/collections/roll/reindex', { key: user, json: { media_ids: ['pxl'] } });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    const t = await settledTask(s, r.body.task_id);
    expect(t.result).toMatchObject({ reindexed: 1, failed: [] });
    expect(await dateOf('pxl')).toEqual({ captured_at: local(2021, 8, 1, 10, 0, 0, 123), captured_at_source: 'filename' });
  });

  it('issue 42: a date anywhere in the name (WhatsApp desktop export, a voice memo) dates the item, by upload and by scan', async () => {
    const wa = await upload('WhatsApp Video 2024-04-03 at 09.12.44.mp4', join(s.mediaDir, 'plain.mp4'), { media_id: 'wa-export', file_modified_at: '2024-05-05T05:05:05Z' });
    expect(wa.status, wa.error?.message).toBe('completed');
    expect(await dateOf('wa-export')).toEqual({ captured_at: local(2024, 4, 3, 9, 12, 44), captured_at_source: 'filename' });
    const impossible = await upload('Sprachmemo 2024-13-45.mp4', join(s.mediaDir, 'plain.mp4'), { media_id: 'impossible', file_modified_at: '2024-05-05T05:05:05Z' });
    expect(impossible.status, impossible.error?.message).toBe('completed');
    expect(await dateOf('impossible')).toEqual({ captured_at: '2024-05-05T05:05:05.000Z', captured_at_source: 'file' });

    const dir = join(s.mediaDir, 'memos');
    mkdirSync(dir, { recursive: true });
    await makeSpeech(join(dir, 'Sprachmemo 2024-03-02 Omas Geburtstag.m4a'), 'Happy birthday');
    const copied = new Date('2024-05-01T08:00:00Z');
    utimesSync(join(dir, 'Sprachmemo 2024-03-02 Omas Geburtstag.m4a'), copied, copied);
    const f = await s.call('POST', '/collections/roll/folders', { key: user, json: { path: dir, watch: false } });
    expect(f.status, JSON.stringify(f.body)).toBe(201);
    const scan = await settledTask(s, f.body.scan_task_id);
    expect(scan.status, scan.error?.message).toBe('completed');
    const newest = (await s.call('GET', '/collections/roll/items?sort=captured&order=desc&limit=100', { key: user })).body.items as Array<{ title: string; captured_at: string; captured_at_source: string }>;
    expect(newest.find((i) => i.title === 'Sprachmemo 2024-03-02 Omas Geburtstag')).toMatchObject({ captured_at: local(2024, 3, 2), captured_at_source: 'filename' });
    // Newest first, the export and the memo sit at their days, after the file dated by its copy.
    const titles = ['Sprachmemo 2024-13-45', 'WhatsApp Video 2024-04-03 at 09.12.44', 'Sprachmemo 2024-03-02 Omas Geburtstag'];
    expect(newest.map((i) => i.title).filter((t) => titles.includes(t))).toEqual(titles);
  });

  it('a folder scan dates a camera name over the file date', async () => {
    const dir = join(s.mediaDir, 'phone');
    mkdirSync(dir, { recursive: true });
    await makePhoto(join(dir, 'IMG_20190714_093012.jpg'), 'Scan');
    const copied = new Date('2024-03-01T08:00:00Z');
    utimesSync(join(dir, 'IMG_20190714_093012.jpg'), copied, copied);
    const f = await s.call('POST', '/collections/roll/folders', { key: user, json: { path: dir, watch: false } });
    expect(f.status, JSON.stringify(f.body)).toBe(201);
    const scan = await settledTask(s, f.body.scan_task_id);
    expect(scan.status, scan.error?.message).toBe('completed');
    const items = (await s.call('GET', '/collections/roll/items?limit=100', { key: user })).body.items as Array<{ type: string; title: string; captured_at: string | null; captured_at_source: string | null }>;
    // The upload `stated` has this title too; the scanned one is the photo.
    expect(items.find((i) => i.type === 'image' && i.title === 'IMG_20190714_093012')).toMatchObject({ captured_at: local(2019, 7, 14, 9, 30, 12), captured_at_source: 'filename' });
  });

  it('search results carry the name date', async () => {
    const r = await s.call('POST', '/search', { key: user, form: { collection: 'roll', query: 'VID-20190714-WA0003' } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const hit = (r.body.results as Array<{ media_id: string; captured_at_source: string | null }>).find((x) => x.media_id === 'wa');
    expect(hit?.captured_at_source).toBe('filename');
  });
});
