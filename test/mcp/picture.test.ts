/**
 * Issue 26 over MCP, both transports: `search` by a picture on the vidx machine (`image_path`, read by the
 * server) and `like` a moment, and the `duplicates` tool. A path outside the media roots, inside the data dir
 * (even with the data dir inside a media root) or through a link out of the roots is refused for every key,
 * by the HTTP API itself (POST /search `image_path`), so neither transport reads a file.
 */
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyVideo, lavfiVideo, photo, screenshot } from '../support/picture-media.js';
import { settledTask, startTestServer, type TestServer } from '../support/server.js';
import { callJson, mcpClient, textOf, type Transport } from './clients.js';

let s: TestServer;
let root: string;
let outside: string;
let alice: string;
const ids = new Map<string, string>();
const titleOf = (id: string) => [...ids.entries()].find(([, v]) => v === id)?.[0];
const query = (name: string) => join(root, 'queries', name);

/** The first file under `dir` whose name ends in `ext` (a thumbnail vidx wrote into its data dir). */
function firstFile(dir: string, ext: string): string | undefined {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isFile() && e.name.endsWith(ext)) return p;
    const found = e.isDirectory() ? firstFile(p, ext) : undefined;
    if (found) return found;
  }
  return undefined;
}

beforeAll(async () => {
  // The data dir lies inside the media root on purpose: it must be refused all the same.
  root = realpathSync(mkdtempSync(join(tmpdir(), 'vidx-mcp-picture-')));
  outside = realpathSync(mkdtempSync(join(tmpdir(), 'vidx-mcp-outside-')));
  const media = join(root, 'media');
  mkdirSync(media);
  mkdirSync(join(root, 'queries'));
  await Promise.all([lavfiVideo(join(media, 'mandelbrot.mp4'), 'mandelbrot', 8), lavfiVideo(join(media, 'testsrc.mp4'), 'testsrc2', 8)]);
  await Promise.all([
    copyVideo(join(media, 'mandelbrot.mp4'), join(media, 'mandelbrot-small.mp4'), { width: 320, crf: 35 }),
    screenshot(join(media, 'testsrc.mp4'), 5, query('testsrc-shot.jpg'), 300),
    photo('astronaut.png', join(outside, 'astronaut.jpg')),
  ]);
  writeFileSync(query('notes.jpg'), 'not a picture');
  symlinkSync(join(outside, 'astronaut.jpg'), query('link-out.jpg'));
  s = await startTestServer({ queryEmbedder: null, dataDir: join(root, 'data'), env: { VIDX_MEDIA_ROOTS: root } });
  alice = await s.newKey();
  expect((await s.call('POST', '/collections', { key: alice, json: { collection_id: 'home', name: 'Home' } })).status).toBe(201);
  const f = await s.call('POST', '/collections/home/folders', { key: alice, json: { path: media, watch: false } });
  expect(f.status, JSON.stringify(f.body)).toBe(201);
  const scan = await settledTask(s, f.body.scan_task_id, 240_000);
  expect(scan.status, scan.error?.message).toBe('completed');
  for (const item of (await s.call('GET', '/collections/home/items', { key: alice })).body.items as { media_id: string; title: string }[]) ids.set(item.title, item.media_id);
  expect(ids.size).toBe(3);
}, 300_000);

afterAll(async () => {
  await s?.close();
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

describe('POST /search image_path (what the MCP tool sends)', () => {
  it('reads a picture inside the media roots and finds the moment it shows', async () => {
    const r = await s.call('POST', '/search', { key: alice, json: { collection: 'home', image_path: query('testsrc-shot.jpg') } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(titleOf(r.body.results[0].media_id)).toBe('testsrc');
  });

  it('refuses, for an admin key too, a path outside the roots, through a link out of them, or inside the data dir', async () => {
    const thumbnail = firstFile(s.dataDir, '.jpg');
    expect(thumbnail).toBeDefined();
    for (const key of [alice, s.adminKey]) {
      for (const path of [join(outside, 'astronaut.jpg'), query('link-out.jpg'), thumbnail!, join(s.dataDir, 'vidx.db'), '/etc/hostname']) {
        const r = await s.call('POST', '/search', { key, json: { collection: 'home', image_path: path } });
        expect(r.status, path).toBe(422);
        expect(r.body.errors[0].field, path).toBe('image_path');
      }
    }
    const notPicture = await s.call('POST', '/search', { key: alice, json: { collection: 'home', image_path: query('notes.jpg') } });
    expect(notPicture.status).toBe(422);
    expect(notPicture.body.errors[0].field).toBe('image_path');
    const both = new FormData();
    both.set('body', JSON.stringify({ collection: 'home', image: 'q.jpg', image_path: query('testsrc-shot.jpg') }));
    both.set('file', new Blob([new Uint8Array(8)]), 'q.jpg');
    const refused = await fetch(`${s.url}/search`, { method: 'POST', headers: { 'x-api-key': alice }, body: both });
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { detail: string }).detail).toMatch(/image or image_path, not both/);
  });
});

describe.each(['http', 'stdio'] as Transport[])('MCP over %s', (transport) => {
  let client: Client;
  beforeAll(async () => {
    client = await mcpClient(transport, s.url, alice);
  });
  afterAll(() => client?.close());

  it('lists search with image_path and like, and the duplicates tool', async () => {
    const { tools } = await client.listTools();
    const search = tools.find((t) => t.name === 'search')!;
    expect(Object.keys(search.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['query', 'image_path', 'like']));
    expect(search.inputSchema.required).toEqual(['collection']);
    expect(tools.find((t) => t.name === 'duplicates')?.inputSchema.required).toEqual(['collection']);
    expect(client.getInstructions()).toMatch(/image_path/);
  });

  it('searches by a picture on the vidx machine, and more like a moment', async () => {
    const shot = await callJson(client, 'search', { collection: 'home', image_path: query('testsrc-shot.jpg') });
    expect(shot.moments[0]).toMatchObject({ media_id: ids.get('testsrc'), title: 'testsrc' });
    expect(shot.image_path).toBe(query('testsrc-shot.jpg'));
    const like = { media_id: ids.get('mandelbrot')!, start_time: 1 };
    const more = await callJson(client, 'search', { collection: 'home', like });
    expect(more.moments[0]).toMatchObject({ media_id: ids.get('mandelbrot-small') });
    expect(more.like).toEqual(like);
    const nothing = await client.callTool({ name: 'search', arguments: { collection: 'home' } });
    expect(nothing.isError).toBe(true);
    expect(textOf(nothing)).toMatch(/query, image, like or speaker .*\(HTTP 422/);
  });

  it('refuses an image_path outside the media roots with the API reason, reading nothing', async () => {
    const r = await client.callTool({ name: 'search', arguments: { collection: 'home', image_path: join(outside, 'astronaut.jpg') } });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/^image_path: path ".*astronaut\.jpg" is outside the configured media roots \(HTTP 422 validation_error\)$/);
    const db = await client.callTool({ name: 'search', arguments: { collection: 'home', image_path: join(s.dataDir, 'vidx.db') } });
    expect(db.isError).toBe(true);
    expect(textOf(db)).toMatch(/inside vidx's own data folder/);
  });

  it('lists the copies of a collection with the one to keep', async () => {
    const { groups, more } = await callJson(client, 'duplicates', { collection: 'home' });
    expect(more).toBe(0);
    expect(groups).toHaveLength(1);
    expect(groups[0].items.map((i: { title: string }) => i.title)).toEqual(['mandelbrot', 'mandelbrot-small']);
    expect(groups[0].keep).toBe(ids.get('mandelbrot'));
    // Same length: the one with more pixels, and the tool says so.
    expect(groups[0]).toMatchObject({ keep_reason: 'higher_resolution', keep_message: 'The copy with the most pixels.' });
    expect(groups[0].items[0]).toMatchObject({ width: 640, height: 360, resource: `vidx://collections/home/items/${ids.get('mandelbrot')}` });
    const strict = await callJson(client, 'duplicates', { collection: 'home', threshold: 1 });
    expect(strict).toMatchObject({ groups: [], note: expect.stringMatching(/No copies/) });
    const other = await client.callTool({ name: 'duplicates', arguments: { collection: 'nope' } });
    expect(textOf(other)).toMatch(/not found \(HTTP 404 not_found\)/);
  });
});
