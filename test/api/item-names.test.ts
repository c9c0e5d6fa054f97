import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeVideo } from '../support/folder-media.js';
import { settledTask, startTestServer, type TestServer } from '../support/server.js';

/** A stand-in for yt-dlp: writes the clip FAKE_PAGE_VIDEO as the download and the page's title where it is asked to print it. */
const FAKE_YTDLP = `#!${process.execPath}
const fs = require('node:fs');
const args = process.argv.slice(2);
fs.copyFileSync(process.env.FAKE_PAGE_VIDEO, args[args.indexOf('-o') + 1].replace('%(ext)s', 'mp4'));
const at = args.indexOf('--print-to-file');
if (at >= 0 && args[at + 1] === '%(title)s') fs.writeFileSync(args[at + 2], 'Geburtstag bei Oma – Teil 2\\n');
`;

/**
 * Issue 22: what a person meets. Items are named after their source, can be renamed, keep the rename
 * through re-index and rescans; dates say what kind of date they are; a folder shows its last scan's
 * counts (which add up) and failed files; task errors say whether a retry can help.
 */
describe('items named after their files, renamed by hand, dated honestly; failures a person can act on', () => {
  let s: TestServer;
  let user: string;
  let other: string;
  let web: Server;
  let webUrl: string;
  let fakeBin: string;

  const upload = async (key: string, name: string, bytes: Buffer, body: Record<string, unknown>) => {
    const fd = new FormData();
    fd.append('body', JSON.stringify({ ...body, video: { content: name, ...(body.video as object) } }));
    fd.append('file', new Blob([new Uint8Array(bytes)]), name);
    const r = await fetch(`${s.url}/index`, { method: 'POST', headers: { 'x-api-key': key }, body: fd });
    expect(r.status).toBe(202);
    return settledTask(s, ((await r.json()) as { task_id: string }).task_id);
  };
  const index = async (key: string, video: Record<string, unknown>, collection = 'home', extra: Record<string, unknown> = {}) => {
    const r = await s.call('POST', '/index', { key, form: { video, collection, ...extra } });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    return settledTask(s, r.body.task_id);
  };
  const item = async (mediaId: string, key = user, collection = 'home') => (await s.call('GET', `/collections/${collection}/items/${mediaId}`, { key })).body;

  beforeAll(async () => {
    fakeBin = mkdtempSync(join(tmpdir(), 'vidx-fake-ytdlp-'));
    writeFileSync(join(fakeBin, 'yt-dlp'), FAKE_YTDLP);
    chmodSync(join(fakeBin, 'yt-dlp'), 0o755);
    s = await startTestServer({ queryEmbedder: null, env: { YTDLP_PATH: join(fakeBin, 'yt-dlp') } });
    user = await s.newKey();
    other = await s.newKey();
    await s.call('POST', '/collections', { key: user, json: { collection_id: 'home', name: 'Home' } });
    await makeVideo(join(s.mediaDir, 'Geburtstag bei Oma.mp4'), 'Kerzen');
    await makeVideo(join(s.mediaDir, 'dated.mp4'), 'Harbour', 2, { creation_time: '2021-06-01T10:00:00Z' });
    await makeVideo(join(s.mediaDir, 'undated.mp4'), 'Meadow');
    process.env.FAKE_PAGE_VIDEO = join(s.mediaDir, 'undated.mp4');
    web = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'video/mp4' });
      res.end(readFileSync(join(s.mediaDir, 'undated.mp4')));
    });
    await new Promise<void>((r) => web.listen(0, '127.0.0.1', r));
    webUrl = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
  }, 120_000);
  afterAll(async () => {
    // Files share a worker's process (isolate: false): the stand-in's setting leaves with this file.
    delete process.env.FAKE_PAGE_VIDEO;
    await new Promise<void>((r) => web.close(() => r()));
    await s.close();
    rmSync(fakeBin, { recursive: true, force: true });
  });

  it('names items after their file, upload name, page title or URL segment; a caller’s title wins', async () => {
    expect((await index(user, { path: join(s.mediaDir, 'Geburtstag bei Oma.mp4'), media_id: 'oma' })).status).toBe('completed');
    expect((await item('oma')).title).toBe('Geburtstag bei Oma');
    const up = await upload(user, 'Beach day.MP4', readFileSync(join(s.mediaDir, 'undated.mp4')), { collection: 'home', video: { media_id: 'beach' } });
    expect(up.status, up.error?.message).toBe('completed');
    expect((await item('beach')).title).toBe('Beach day');
    expect((await index(s.adminKey, { url: `${webUrl}/clips/birthday%20party.mp4?x=1`, media_id: 'party' })).status).toBe('completed');
    expect((await item('party', s.adminKey)).title).toBe('birthday party');
    expect((await index(user, { url: 'https://www.youtube.com/watch?v=vidx-title', media_id: 'page' })).status).toBe('completed');
    expect((await item('page')).title).toBe('Geburtstag bei Oma – Teil 2');
    expect((await index(user, { path: join(s.mediaDir, 'undated.mp4'), media_id: 'given', title: 'My own title' })).status).toBe('completed');
    expect((await item('given')).title).toBe('My own title');
    // Search results carry the title too, so no client has to show a media_id.
    const hits = (await s.call('POST', '/search', { key: user, form: { collection: 'home', query: 'Geburtstag' } })).body.results;
    expect(hits[0]).toMatchObject({ media_id: 'oma', title: 'Geburtstag bei Oma' });
  });

  it('renames an item (owner only); the new title is searchable and survives a re-index', async () => {
    const patched = await s.call('PATCH', '/collections/home/items/oma', { key: user, json: { title: 'Omas 80. Geburtstag', additional_metadata: { ort: 'Kassel' } } });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body).toMatchObject({ title: 'Omas 80. Geburtstag', additional_metadata: { ort: 'Kassel' } });
    expect((await s.call('PATCH', '/collections/home/items/oma', { key: other, json: { title: 'mine now' } })).status).toBe(404);
    const empty = await s.call('PATCH', '/collections/home/items/oma', { key: user, json: {} });
    expect(empty.status).toBe(422);
    expect((await s.call('PATCH', '/collections/home/items/oma', { key: user, json: { title: 'x', colour: 'red' } })).body.detail).toMatch(/colour: unknown field/);
    const found = (await s.call('POST', '/search', { key: user, form: { collection: 'home', query: 'Kassel' } })).body.results;
    expect(found.map((r: { media_id: string }) => r.media_id)).toEqual(['oma']);
    expect((await index(user, { path: join(s.mediaDir, 'Geburtstag bei Oma.mp4'), media_id: 'oma', title: 'caller title' }, 'home', { reindex_if_exists: true })).status).toBe('completed');
    expect(await item('oma')).toMatchObject({ title: 'Omas 80. Geburtstag', additional_metadata: { ort: 'Kassel' } });
  });

  it('tells a recording date from a file date: uploads read creation_time, else the page’s lastModified', async () => {
    const dated = await upload(user, 'dated.mp4', readFileSync(join(s.mediaDir, 'dated.mp4')), { collection: 'home', video: { media_id: 'dated-up', file_modified_at: '2025-01-02T03:04:05Z' } });
    expect(dated.status).toBe('completed');
    expect(await item('dated-up')).toMatchObject({ captured_at: '2021-06-01T10:00:00.000Z', captured_at_source: 'metadata' });
    const plain = await upload(user, 'plain.mp4', readFileSync(join(s.mediaDir, 'undated.mp4')), { collection: 'home', video: { media_id: 'plain-up', file_modified_at: '2025-01-02T03:04:05Z' } });
    expect(plain.status).toBe('completed');
    expect(await item('plain-up')).toMatchObject({ captured_at: '2025-01-02T03:04:05.000Z', captured_at_source: 'file' });
    expect(await item('beach')).toMatchObject({ captured_at: null, captured_at_source: null });
    expect(await item('oma')).toMatchObject({ captured_at_source: 'file' });
    expect((await item('oma')).size).toBeGreaterThan(1000);
    const bad = await s.call('POST', '/index', { key: user, form: { collection: 'home', video: { path: join(s.mediaDir, 'dated.mp4'), file_modified_at: 'yesterday' } } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].field).toBe('video.file_modified_at');
  });

  it('shows a folder’s last scan with counts that add up and each failed file with its reason; a rescan keeps a rename', async () => {
    const dir = join(s.mediaDir, 'Urlaub');
    mkdirSync(join(dir, 'tag 2'), { recursive: true });
    await makeVideo(join(dir, 'Strand.mp4'), 'Strand');
    await makeVideo(join(dir, 'tag 2', 'Hafen.mp4'), 'Hafen');
    writeFileSync(join(dir, 'notes.txt'), 'shopping list');
    writeFileSync(join(dir, 'kaputt.mp4'), 'this is not a video at all');
    const outside = mkdtempSync(join(tmpdir(), 'vidx-outside-'));
    writeFileSync(join(outside, 'x.mp4'), 'x');
    symlinkSync(join(outside, 'x.mp4'), join(dir, 'link.mp4'));
    await s.call('POST', '/collections', { key: user, json: { collection_id: 'urlaub', name: 'Urlaub' } });
    const added = await s.call('POST', '/collections/urlaub/folders', { key: user, form: { path: dir, watch: false } });
    expect(added.status).toBe(201);
    const scan = await settledTask(s, added.body.scan_task_id, 90_000);
    expect(scan.status).toBe('completed');
    const folder = (await s.call('GET', `/collections/urlaub/folders/${added.body.folder_id}`, { key: user })).body;
    const r = folder.last_scan_result;
    expect(r).toMatchObject({ found: 5, added: 2, changed: 0, moved: 0, removed: 0, unchanged: 0, skipped: 2 });
    expect(r.failed).toEqual([{ path: 'kaputt.mp4', reason: expect.stringMatching(/^kaputt\.mp4 is not a media file/), code: 'not_media' }]);
    expect(r.found).toBe(r.added + r.changed + r.moved + r.unchanged + r.skipped + r.failed.length);
    expect(r.skipped_files.map((f: { path: string }) => f.path).sort()).toEqual(['link.mp4', 'notes.txt']);
    const items = (await s.call('GET', '/collections/urlaub/items', { key: user })).body.items as { media_id: string; title: string; folder_path?: string }[];
    expect(items.map((i) => [i.title, i.folder_path]).sort()).toEqual([['Hafen', 'tag 2/Hafen.mp4'], ['Strand', 'Strand.mp4']]);
    // Another owner reading the collection (made public) sees no path inside the owner's folder.
    await s.call('PUT', '/collections/urlaub', { json: { is_public: true } });
    const theirs = (await s.call('GET', '/collections/urlaub/items?is_public=true', { key: other })).body.items as { folder_path?: string }[];
    expect(theirs.every((i) => i.folder_path === undefined)).toBe(true);

    const strand = items.find((i) => i.title === 'Strand')!;
    expect((await s.call('PATCH', `/collections/urlaub/items/${strand.media_id}`, { key: user, json: { title: 'Strand am Morgen' } })).status).toBe(200);
    await makeVideo(join(dir, 'Strand.mp4'), 'Strand neu', 3);
    utimesSync(join(dir, 'Strand.mp4'), new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    const again = await s.call('POST', `/collections/urlaub/folders/${added.body.folder_id}/scan`, { key: user });
    const rescan = await settledTask(s, again.body.task_id, 90_000);
    expect(rescan.result).toMatchObject({ changed: 1 });
    expect((await item(strand.media_id, user, 'urlaub')).title).toBe('Strand am Morgen');
    rmSync(outside, { recursive: true, force: true });
  });

  it('gives a task error a code and whether a retry can help; the message names the user’s file', async () => {
    const broken = await upload(user, 'Hochzeit.mp4', Buffer.from('not a video '.repeat(50)), { collection: 'home' });
    expect(broken.status).toBe('failed');
    expect(broken.error).toEqual({ message: expect.stringMatching(/^Hochzeit\.mp4 is not a media file/), code: 'not_media', retryable: false });
    const closed = await index(s.adminKey, { url: 'http://127.0.0.1:9/gone.mp4' });
    expect(closed.status).toBe('failed');
    expect(closed.error).toMatchObject({ code: 'unreachable', retryable: true });
  });
});
