import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { ADMIN_KEY, startTestServer, waitFor, type TestServer } from '../support/server.js';
import { makeHeic, makePhoto, makeVideo } from '../support/folder-media.js';

const run = promisify(execFile);

/** An iPhone-style QuickTime movie whose place is the `com.apple.quicktime.location.ISO6709` key. */
async function makeIphoneMovie(out: string, iso6709: string): Promise<void> {
  await run('ffmpeg', [
    '-hide_banner', '-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=darkgreen:s=320x240:r=10:d=2',
    '-c:v', 'libx264', '-preset', 'ultrafast', '-movflags', 'use_metadata_tags',
    '-metadata', `com.apple.quicktime.location.ISO6709=${iso6709}`, out,
  ]);
}

describe('places of a camera roll, offline', () => {
  let s: TestServer;
  let base: string;
  const byName = new Map<string, Record<string, any>>();

  beforeAll(async () => {
    base = realpathSync(mkdtempSync(join(tmpdir(), 'vidx-places-')));
    const media = join(base, 'media');
    mkdirSync(media);
    await makeHeic(join(media, 'tram.heic'), 'TRAM', { dateTimeOriginal: '2018:05:20 16:45:00', latitude: 38.7223, longitude: -9.1393 });
    // Android writes the place as the MP4 `location` tag (ISO 6709).
    await makeVideo(join(media, 'garden.mp4'), 'GARDEN', 2, { location: '+48.1374+011.5755/' });
    await makeIphoneMovie(join(media, 'wall.mov'), '+52.4986+013.4030+034.000/');
    await makeVideo(join(media, 'island.mp4'), 'ISLAND', 2, { location: '+00.0000+000.0000/' }, 'teal');
    await makeVideo(join(media, 'ocean.mp4'), 'OCEAN', 2, { location: '+45.0000-030.0000/' }, 'maroon');
    await makePhoto(join(media, 'nogps.jpg'), 'BAKERY');
    s = await startTestServer({ env: { VIDX_MEDIA_ROOTS: media } });
    await s.call('POST', '/collections', { json: { collection_id: 'roll', name: 'Camera roll' } });
    const r = await s.call('POST', '/collections/roll/folders', { json: { path: media, watch: false } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const t = await waitFor(async () => {
      const task = (await s.call('GET', `/tasks/${r.body.scan_task_id}`)).body;
      return task.status === 'completed' || task.status === 'failed' ? task : undefined;
    }, 240_000, 'scan');
    expect(t.status, JSON.stringify(t.result ?? t.error)).toBe('completed');
    for (const item of (await s.call('GET', '/collections/roll/items?limit=100')).body.items) byName.set(item.folder_path, item);
  }, 300_000);
  afterAll(async () => {
    await s?.close();
    rmSync(base, { recursive: true, force: true });
  });

  it('names the place of EXIF GPS, the MP4 location tag and QuickTime ISO 6709', () => {
    expect(byName.get('tram.heic')?.place).toEqual({ city: 'Lisbon', district: null, region: 'Lisbon', country: 'Portugal', country_code: 'PT' });
    expect(byName.get('garden.mp4')?.place).toMatchObject({ city: 'Munich', region: 'Bavaria', country: 'Germany', country_code: 'DE' });
    expect(byName.get('wall.mov')?.place).toMatchObject({ city: 'Berlin', district: 'Kreuzberg', country_code: 'DE' });
  });

  it('keeps no place for 0,0, the open sea or a photo without GPS', () => {
    expect(byName.get('island.mp4')).toMatchObject({ latitude: null, longitude: null, place: null });
    expect(byName.get('ocean.mp4')).toMatchObject({ latitude: 45, longitude: -30, place: null });
    expect(byName.get('nogps.jpg')).toMatchObject({ latitude: null, place: null });
  });

  it('finds items by their place in English and German, and shows the place in results', async () => {
    const first = async (query: string) => (await s.call('POST', '/search', { json: { query, collection: 'roll' } })).body.results[0];
    for (const [query, file] of [['Lisbon', 'tram.heic'], ['Lissabon', 'tram.heic'], ['München', 'garden.mp4'], ['Munich', 'garden.mp4'], ['Kreuzberg', 'wall.mov']]) {
      const hit = await first(query);
      expect(hit?.media_id, query).toBe(byName.get(file)?.media_id);
    }
    expect((await first('Lisboa'))?.place).toMatchObject({ city: 'Lisbon' });
    const germany = await s.call('POST', '/search', { json: { query: 'Deutschland', collection: 'roll', limit: 20 } });
    expect(new Set(germany.body.results.map((r: { media_id: string }) => r.media_id))).toEqual(new Set([byName.get('garden.mp4')?.media_id, byName.get('wall.mov')?.media_id]));
  });

  it('names places in German for a German reader: items, the places list and search results', async () => {
    const de = { headers: { 'accept-language': 'de-DE,de;q=0.9' } };
    const garden = (await s.call('GET', `/collections/roll/items/${byName.get('garden.mp4')!.media_id}`, de)).body;
    expect(garden.place).toMatchObject({ city: 'München', region: 'Bayern', country: 'Deutschland', country_code: 'DE' });
    const english = (await s.call('GET', `/collections/roll/items/${byName.get('garden.mp4')!.media_id}`)).body;
    expect(english.place).toMatchObject({ city: 'Munich', region: 'Bavaria', country: 'Germany' });
    const listed = (await s.call('GET', '/collections/roll/items?limit=100', de)).body.items.find((i: { media_id: string }) => i.media_id === byName.get('tram.heic')!.media_id);
    expect(listed.place).toMatchObject({ city: 'Lissabon', country: 'Portugal' });
    const places = (await s.call('GET', '/collections/roll/places', de)).body.places.map((p: { city: string; region: string | null; country: string }) => `${p.city}, ${p.region}, ${p.country}`);
    expect(places).toEqual(expect.arrayContaining(['München, Bayern, Deutschland', 'Lissabon, Lissabon, Portugal']));
    const hit = (await s.call('POST', '/search', { json: { query: 'Lissabon', collection: 'roll', search_language: 'de' } })).body.results[0];
    expect(hit).toMatchObject({ start_time: 0, place: { city: 'Lissabon', country: 'Portugal' } });
    expect(hit.content).toMatch(/^Lissabon, Portugal/);
  });

  it('filters by a named place, a region, a country, or a point and radius', async () => {
    const near = async (q: Record<string, unknown>) => {
      const r = await s.call('POST', '/search', { json: { query: 'tram garden', collection: 'roll', limit: 20, ...q } });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return new Set(r.body.results.map((x: { media_id: string }) => x.media_id));
    };
    const id = (file: string) => byName.get(file)?.media_id;
    expect(await near({ near: 'Lissabon' })).toEqual(new Set([id('tram.heic')]));
    expect(await near({ near: 'Portugal' })).toEqual(new Set([id('tram.heic')]));
    expect(await near({ near: 'Bavaria' })).toEqual(new Set([id('garden.mp4')]));
    expect(await near({ near: '48.14,11.58', near_km: 2 })).toEqual(new Set([id('garden.mp4')]));
    expect(await near({ near: '48.14,11.58', near_km: 0.1 })).toEqual(new Set());

    const listed = await s.call('GET', '/collections/roll/items?near=Deutschland&limit=10');
    expect(listed.status).toBe(200);
    expect(listed.body.total).toBe(2);
    expect(new Set(listed.body.items.map((i: { folder_path: string }) => i.folder_path))).toEqual(new Set(['garden.mp4', 'wall.mov']));
  });

  it('filters and names places on the command line', async () => {
    const cli = await runCli(['search', 'tram garden', '--collection', 'roll', '--near', 'Lissabon', '--url', s.url], { VIDX_API_KEY: ADMIN_KEY }, { timeoutMs: 60_000 });
    expect(cli.code, cli.stderr).toBe(0);
    expect(cli.stdout).toContain('(Lisbon, Portugal)');
    expect(cli.stdout).not.toContain('Munich');
    const bad = await runCli(['search', 'tram', '--collection', 'roll', '--near-km', '-1', '--url', s.url], { VIDX_API_KEY: ADMIN_KEY }, { timeoutMs: 60_000 });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/--near-km/);
  }, 120_000);

  it('refuses a place nobody knows and a point off Earth with a 422 naming near', async () => {
    for (const near of ['Qwzxville of the North', '95,10', '10,200']) {
      const r = await s.call('POST', '/search', { json: { query: 'tram', collection: 'roll', near } });
      expect(r.status, near).toBe(422);
      expect(JSON.stringify(r.body), near).toMatch(/near/);
    }
    const listed = await s.call('GET', '/collections/roll/items?near=Qwzxville');
    expect(listed.status).toBe(422);
    const bad = await s.call('GET', '/collections/roll/items?near=Lisbon&near_km=-3');
    expect(bad.status).toBe(422);
  });

  it('lists the places with counts and the GeoNames credit', async () => {
    const r = await s.call('GET', '/collections/roll/places');
    expect(r.status).toBe(200);
    expect(r.body.credit).toMatch(/GeoNames/);
    expect(r.body.places.map((p: { city: string; items: number }) => [p.city, p.items]).sort()).toEqual([['Berlin', 1], ['Lisbon', 1], ['Munich', 1]]);
  });

  it('looks up the places of items stored before places existed, at the next start', async () => {
    // As an item stored before places existed: no place, and none of its words in the text index.
    const db = s.vidx.store.db;
    db.prepare('UPDATE items SET place = NULL, place_words = NULL WHERE latitude IS NOT NULL').run();
    const tram = db.prepare('SELECT pk, collection_pk FROM items WHERE media_id = ?').get(byName.get('tram.heic')!.media_id) as { pk: number; collection_pk: number };
    s.vidx.searchIndex.retextItem(tram.collection_pk, tram.pk);
    expect((await s.call('POST', '/search', { json: { query: 'Lissabon', collection: 'roll' } })).body.results).toEqual([]);
    const dataDir = s.dataDir;
    await s.close({ keepData: true });
    s = await startTestServer({ dataDir, env: { VIDX_MEDIA_ROOTS: join(base, 'media') } });
    const item = await waitFor(async () => {
      const it = (await s.call('GET', `/collections/roll/items/${byName.get('tram.heic')!.media_id}`)).body;
      return it.place ? it : undefined;
    }, 30_000, 'place looked up');
    expect(item.place).toMatchObject({ city: 'Lisbon' });
    const hit = (await s.call('POST', '/search', { json: { query: 'Lissabon', collection: 'roll' } })).body.results[0];
    expect(hit?.media_id).toBe(byName.get('tram.heic')!.media_id);
  });
});
