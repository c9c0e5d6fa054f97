import sharp from 'sharp';
import { mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync, copyFileSync, truncateSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ON_THREADS, startTestServer, waitFor, type TestServer } from '../support/server.js';
import { agedFiles, makePhoto, makeSpeech, makeVideo } from '../support/folder-media.js';

describe('folders bound to a collection, scanned incrementally', () => {
  let s: TestServer;
  let media: string;
  let outside: string;
  let folderId: string;
  let base: string;

  const task = (id: string) =>
    waitFor(async () => {
      const t = (await s.call('GET', `/tasks/${id}`)).body;
      return t.status === 'completed' || t.status === 'failed' ? t : undefined;
    }, 180_000, `task ${id}`);
  const scan = async () => {
    const r = await s.call('POST', `/collections/archive/folders/${folderId}/scan`);
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    const t = await task(r.body.task_id);
    expect(t.status, t.error?.message).toBe('completed');
    return t.result;
  };
  const items = async () => (await s.call('GET', '/collections/archive/items?limit=100')).body.items as { media_id: string; type: string; captured_at: string | null; captured_at_source: string | null; latitude: number | null; longitude: number | null; thumbnail_url: string | null }[];
  const search = async (query: string, extra: Record<string, unknown> = {}) => {
    const r = await s.call('POST', '/search', { json: { query, collection: 'archive', ...extra } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.results as { media_id: string; start_time: number; captured_at: string | null; media_type: string }[];
  };

  beforeAll(async () => {
    base = realpathSync(mkdtempSync(join(tmpdir(), 'vidx-folders-')));
    media = join(base, 'media');
    outside = join(base, 'outside');
    mkdirSync(join(media, 'trips', 'beach'), { recursive: true });
    mkdirSync(join(media, 'private'), { recursive: true });
    mkdirSync(outside, { recursive: true });
    await Promise.all([
      makeVideo(join(media, 'trips', 'lighthouse.mp4'), 'LIGHTHOUSE', 2, { creation_time: '2021-06-01T10:00:00Z', location: '+48.8577+002.2950/' }),
      makeVideo(join(media, 'trips', 'beach', 'sunset.mp4'), 'SUNSET', 2, {}, 'maroon'),
      makeVideo(join(media, 'private', 'secret.mp4'), 'SECRET', 2, {}, 'green'),
      makeSpeech(join(media, 'memo.m4a'), 'Remember to buy oat milk and fresh bread tomorrow'),
      makePhoto(join(media, 'bakery.jpg'), 'BAKERY', { dateTimeOriginal: '2019:07:14 09:30:00' }),
      makeVideo(join(outside, 'elsewhere.mp4'), 'ELSEWHERE', 2),
    ]);
    writeFileSync(join(media, 'notes.txt'), 'not media at all');
    // The memo's transcript comes from its sidecar here (no speech model in this test); the .srt itself is not media.
    writeFileSync(join(media, 'memo.srt'), '1\n00:00:00,000 --> 00:00:03,000\nRemember to buy oat milk and fresh bread tomorrow\n');
    // A broken file: the first half of a real MP4 (truncated download).
    copyFileSync(join(media, 'trips', 'lighthouse.mp4'), join(media, 'broken.mp4'));
    truncateSync(join(media, 'broken.mp4'), Math.floor(statSync(join(media, 'broken.mp4')).size / 2));
    symlinkSync(join(outside, 'elsewhere.mp4'), join(media, 'link-out.mp4'));
    // Everything is older than the stability window, as an archive is.
    // Two at a time: the scan indexes files in parallel up to the task concurrency.
    // On threads, as production scans: two threads at once, each with the server's file-access rule.
    s = await startTestServer({ env: { ...ON_THREADS, VIDX_MEDIA_ROOTS: media, VIDX_TASK_CONCURRENCY: '2' } });
    await s.call('POST', '/collections', { json: { collection_id: 'archive', name: 'Archive' } });
  }, 120_000);
  afterAll(async () => {
    await s?.close();
    rmSync(base, { recursive: true, force: true });
  });

  it('documents the folder endpoints and the search filters in the OpenAPI document', async () => {
    const doc = (await s.call('GET', '/openapi.json', { key: null })).body;
    for (const p of ['/collections/{collection_id}/folders', '/collections/{collection_id}/folders/{folder_id}', '/collections/{collection_id}/folders/{folder_id}/scan']) {
      expect(Object.keys(doc.paths)).toContain(p);
    }
    expect(Object.keys(doc.components.schemas.SearchRequest.properties)).toEqual(expect.arrayContaining(['media_type', 'captured_after', 'captured_before', 'folder_id']));
    expect(Object.keys(doc.components.schemas.MediaItem.properties)).toEqual(expect.arrayContaining(['captured_at', 'captured_at_source', 'latitude', 'longitude']));
  });

  it('refuses a path outside the media roots (422) and the same folder twice (409)', async () => {
    const out = await s.call('POST', '/collections/archive/folders', { json: { path: outside } });
    expect(out.status).toBe(422);
    expect(out.body.errors[0].field).toBe('path');
    expect(out.body.detail).toMatch(/media roots/);
    const dotdot = await s.call('POST', '/collections/archive/folders', { json: { path: `${media}/../outside` } });
    expect(dotdot.status).toBe(422);
    const user = await s.newKey('user');
    expect((await s.call('POST', '/collections/archive/folders', { key: user, json: { path: media } })).status).toBe(404);
  });

  it('first scan: nested folders, excluded glob, symlink out of the roots, broken file, image, audio', async () => {
    const r = await s.call('POST', '/collections/archive/folders', { form: { path: media, exclude: ['private/**'], watch: false } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({ collection_id: 'archive', path: media, recursive: true, exclude: ['private/**'], watch: false, last_scan: null });
    folderId = r.body.folder_id;
    expect((await s.call('POST', '/collections/archive/folders', { json: { path: media } })).status).toBe(409);
    const nested = await s.call('POST', '/collections/archive/folders', { json: { path: join(media, 'trips') } });
    expect(nested.status).toBe(409);
    expect(nested.body.detail).toMatch(/overlaps/);
    const t = await task(r.body.scan_task_id);
    expect(t.status, t.error?.message).toBe('completed');
    expect(t).toMatchObject({ kind: 'folder_scan', endpoint: `/collections/archive/folders/${folderId}/scan` });
    const res = t.result;
    expect(res).toMatchObject({ added: 4, changed: 0, moved: 0, removed: 0, unchanged: 0, skipped: 3 });
    expect([...res.skipped_files].sort((a: { path: string }, b: { path: string }) => a.path.localeCompare(b.path))).toEqual([
      { path: 'link-out.mp4', reason: expect.stringMatching(/outside the media roots/), code: 'outside_roots' },
      { path: 'memo.srt', reason: expect.stringMatching(/^subtitles/), code: 'subtitles' },
      { path: 'notes.txt', reason: expect.stringMatching(/^not a media file/), code: 'not_media' },
    ]);
    expect(res.failed).toEqual([{ path: 'broken.mp4', reason: expect.stringMatching(/truncated/), code: 'truncated' }]);
    // Every entry found lands in one count: 4 media, notes.txt, memo.srt, the link, broken.mp4 (the excluded folder is not looked at).
    expect(res.found).toBe(8);
    expect(res.found).toBe(res.added + res.changed + res.moved + res.unchanged + res.skipped + res.failed.length);
    const list = await items();
    expect(list.map((i) => i.type).sort()).toEqual(['audio', 'image', 'video', 'video']);
    const video = list.find((i) => i.type === 'video' && i.captured_at_source === 'metadata')!;
    expect(video).toMatchObject({ captured_at: '2021-06-01T10:00:00.000Z', latitude: 48.8577, longitude: 2.295 });
    expect(list.find((i) => i.type === 'image')).toMatchObject({ captured_at: '2019-07-14T09:30:00.000Z', captured_at_source: 'metadata' });
    expect(list.find((i) => i.type === 'audio')!.captured_at_source).toBe('file');
    const folder = (await s.call('GET', `/collections/archive/folders/${folderId}`)).body;
    expect(folder.last_scan).not.toBeNull();
    const { folder_id: _id, ...kept } = res;
    expect(folder.last_scan_result).toEqual(kept);
    expect((await s.call('GET', '/collections/archive/folders')).body.folders).toHaveLength(1);
  }, 300_000);

  it('finds a moment in a video, the text of a photo (EXIF orientation applied) and a voice memo', async () => {
    const photo = await search('bakery');
    expect(photo[0]).toMatchObject({ media_type: 'image', start_time: 0, captured_at: '2019-07-14T09:30:00.000Z' });
    const img = (await items()).find((i) => i.type === 'image')!;
    const thumb = await fetch(img.thumbnail_url!);
    expect(thumb.status).toBe(200);
    expect((await search('lighthouse'))[0].media_type).toBe('video');
    const memo = await search('oat milk');
    expect(memo[0]).toMatchObject({ media_type: 'audio', start_time: 0 });
    // A voice memo has a picture of its own: its waveform.
    const wave = await fetch((await items()).find((i) => i.type === 'audio')!.thumbnail_url!);
    expect(wave.status).toBe(200);
    expect(wave.headers.get('content-type')).toBe('image/jpeg');
    const meta = await sharp(Buffer.from(await wave.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([320, 180]);
    expect(await search('oat milk', { media_type: 'image' })).toEqual([]);
  });

  it('filters search by media_type, capture time and folder', async () => {
    expect(await search('bakery', { media_type: 'video' })).toEqual([]);
    expect((await search('bakery', { media_type: 'image' })).length).toBe(1);
    expect((await search('lighthouse', { captured_after: '2021-01-01T00:00:00Z', captured_before: '2022-01-01T00:00:00Z' })).length).toBe(1);
    expect(await search('lighthouse', { captured_before: '2020-01-01T00:00:00Z' })).toEqual([]);
    expect((await search('lighthouse', { folder_id: folderId })).length).toBe(1);
    expect((await s.call('POST', '/search', { json: { query: 'x', collection: 'archive', captured_after: 'yesterday' } })).status).toBe(422);
  });

  it('rescan: unchanged files are not touched; rename and move keep the item; delete removes it', async () => {
    const before = await items();
    const again = await scan();
    expect(again).toMatchObject({ found: 8, added: 0, changed: 0, moved: 0, removed: 0, unchanged: 4, skipped: 3, failed: [{ path: 'broken.mp4', reason: expect.stringMatching(/truncated/), code: 'truncated' }] });
    const lighthouse = before.find((i) => i.type === 'video' && i.captured_at_source === 'metadata')!.media_id;
    const photo = before.find((i) => i.type === 'image')!.media_id;
    renameSync(join(media, 'trips', 'lighthouse.mp4'), join(media, 'trips', 'phare.mp4'));
    mkdirSync(join(media, 'photos'));
    renameSync(join(media, 'bakery.jpg'), join(media, 'photos', 'bakery.jpg'));
    rmSync(join(media, 'trips', 'beach', 'sunset.mp4'));
    const moved = await scan();
    expect(moved).toMatchObject({ added: 0, moved: 2, removed: 1, unchanged: 1 });
    const after = await items();
    expect(after.map((i) => i.media_id).sort()).toEqual(before.map((i) => i.media_id).filter((id) => after.some((a) => a.media_id === id)).sort());
    expect(after.some((i) => i.media_id === lighthouse)).toBe(true);
    expect(after.some((i) => i.media_id === photo)).toBe(true);
    expect(after).toHaveLength(3);
    expect(await search('sunset')).toEqual([]);
    // The moved video still plays from its item's link.
    const hit = (await search('lighthouse'))[0] as unknown as { src: string; media_id: string };
    expect(hit.media_id).toBe(lighthouse);
    expect([200, 206]).toContain((await fetch(hit.src)).status);
  }, 120_000);

  it('changed content is reindexed under the same media_id', async () => {
    const id = (await items()).find((i) => i.type === 'video' && i.captured_at_source === 'metadata')!.media_id;
    await makeVideo(join(outside, 'windmill.mp4'), 'WINDMILL', 2);
    renameSync(join(outside, 'windmill.mp4'), join(media, 'trips', 'phare.mp4'));
    agedFiles(join(media, 'trips', 'phare.mp4')); // past the stability window, so the scan does not wait
    const r = await scan();
    expect(r).toMatchObject({ changed: 1, added: 0, removed: 0 });
    expect((await search('windmill'))[0].media_id).toBe(id);
    expect(await search('lighthouse')).toEqual([]);
  }, 120_000);

  it('removing the folder removes its items unless remove_items=false', async () => {
    const kept = await s.call('DELETE', `/collections/archive/folders/${folderId}?remove_items=false`);
    expect(kept.status).toBe(200);
    expect(kept.body.folder_id).toBe(folderId);
    expect((await items()).length).toBe(3);
    expect((await s.call('GET', `/collections/archive/folders/${folderId}`)).status).toBe(404);
    const again = await s.call('POST', '/collections/archive/folders', { json: { path: join(media, 'trips'), watch: false } });
    expect(again.status).toBe(201);
    expect((await task(again.body.scan_task_id)).result).toMatchObject({ added: 1 });
    expect((await items()).length).toBe(4);
    const gone = await s.call('DELETE', `/collections/archive/folders/${again.body.folder_id}`);
    expect(gone.status).toBe(200);
    expect((await items()).length).toBe(3);
  }, 120_000);
});
