/**
 * Issue 47, the archive by time: a folder of photos with EXIF dates and GPS across cities and years (written
 * by exiftool), bound as a folder and scanned by a real server on 127.0.0.1, grouped into events (a day at home, a party across
 * midnight, a trip away that returns home), on this day in earlier years, and the timeline's counts.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePhoto } from '../support/folder-media.js';
import { startTestServer, waitFor, type TestServer } from '../support/server.js';
import { indexedFolder } from '../support/web-media.js';


const BERLIN = { latitude: 52.52, longitude: 13.405 };
const LISBON = { latitude: 38.7223, longitude: -9.1393 };
const VIENNA = { latitude: 48.2082, longitude: 16.3738 };

/** Photos: name, EXIF date (the camera's clock), where. */
const PHOTOS: [string, string | null, { latitude: number; longitude: number } | null][] = [
  ['market-1', '2023:03:04 10:00:00', BERLIN],
  ['market-2', '2023:03:04 18:00:00', BERLIN],
  ['party-1', '2023:12:31 22:30:00', BERLIN],
  ['party-2', '2024:01:01 00:40:00', BERLIN],
  ['lisbon-1', '2024:05:03 09:00:00', LISBON],
  ['lisbon-2', '2024:05:04 12:00:00', LISBON],
  ['lisbon-3', '2024:05:05 19:00:00', LISBON],
  ['home-again', '2024:05:06 10:00:00', BERLIN],
  ['vienna', '2023:06:10 14:00:00', VIENNA],
  ['garden', '2022:05:04 16:00:00', BERLIN],
  ['no-gps', '2021:08:01 11:00:00', null],
  ['no-date', null, null],
];

interface Event { event_id: string; title: string; name: string | null; start: string; end: string; counts: { image: number }; places: { city: string }[]; cover: { media_id: string; folder_path: string } | null }

describe('events, on this day and the timeline', () => {
  let s: TestServer;
  const events = async (headers: Record<string, string> = {}) => (await s.call('GET', '/collections/roll/events?limit=100', { headers })).body as { events: Event[]; total: number; next_offset: number | null };
  const named = (list: Event[], city: string, year: string) => list.find((e) => e.places[0]?.city === city && e.start.startsWith(year));

  beforeAll(async () => {
    s = await startTestServer();
    await indexedFolder(s, 'roll', async (dir) => {
      for (const [name, date, where] of PHOTOS) await makePhoto(join(dir, `${name}.jpg`), name.toUpperCase(), { ...(date ? { dateTimeOriginal: date } : {}), ...where });
    });
  }, 300_000);
  afterAll(async () => {
    await s?.close();
  });

  it('groups a day at home, a party across midnight and a trip away, newest first, titled by place and dates', async () => {
    const { events: list, total, next_offset } = await events();
    expect(total).toBe(list.length);
    expect(next_offset).toBeNull();
    expect(list.map((e) => e.title)).toEqual([
      'Berlin, 6 May 2024',
      'Lisbon, 3\u2009–\u20095 May 2024',
      'Berlin, 31 December 2023\u2009–\u20091 January 2024',
      'Vienna, 10 June 2023',
      'Berlin, 4 March 2023',
      'Berlin, 4 May 2022',
      '1 August 2021',
    ]);
    expect(named(list, 'Lisbon', '2024')).toMatchObject({ counts: { image: 3 }, name: null });
    // The cover is the photo nearest the middle of the trip.
    expect(named(list, 'Lisbon', '2024')!.cover?.folder_path).toBe('lisbon-2.jpg');
  });

  it('titles events in German for a German reader', async () => {
    const { events: list } = await events({ 'accept-language': 'de' });
    expect(list.slice(0, 2).map((e) => e.title)).toEqual(['Berlin, 6. Mai 2024', 'Lissabon, 3.–5. Mai 2024']);
  });

  it('lists an event\'s items, and keeps a name given to it across a re-index', async () => {
    const lisbon = named((await events()).events, 'Lisbon', '2024')!;
    const one = (await s.call('GET', `/collections/roll/events/${lisbon.event_id}`)).body;
    expect(one.items.map((i: { folder_path: string }) => i.folder_path)).toEqual(['lisbon-1.jpg', 'lisbon-2.jpg', 'lisbon-3.jpg']);
    const renamed = await s.call('PATCH', `/collections/roll/events/${lisbon.event_id}`, { json: { name: 'Lisbon with Anna' } });
    expect(renamed.body).toMatchObject({ event_id: lisbon.event_id, title: 'Lisbon with Anna', name: 'Lisbon with Anna' });
    const reindex = await s.call('POST', '/collections/roll/reindex', { json: { media_ids: one.items.map((i: { media_id: string }) => i.media_id) } });
    expect(reindex.status).toBe(202);
    await waitFor(async () => ((await s.call('GET', `/tasks/${reindex.body.task_id}`)).body.status === 'completed' ? true : undefined), 120_000, 'reindex');
    const after = named((await events()).events, 'Lisbon', '2024')!;
    expect(after).toMatchObject({ event_id: lisbon.event_id, title: 'Lisbon with Anna' });
    expect((await s.call('PATCH', `/collections/roll/events/${lisbon.event_id}`, { json: { name: null } })).body.title).toBe('Lisbon, 3\u2009–\u20095 May 2024');
    expect((await s.call('GET', '/collections/roll/events/event-unknown')).status).toBe(404);
  });

  it('regroups as items go: a trip without its middle day is still one trip', async () => {
    const before = named((await events()).events, 'Lisbon', '2024')!;
    const middle = (await s.call('GET', `/collections/roll/events/${before.event_id}`)).body.items[1];
    expect(middle.folder_path).toBe('lisbon-2.jpg');
    expect((await s.call('DELETE', `/collections/roll/items/${middle.media_id}`)).status).toBe(200);
    const lisbon = named((await events()).events, 'Lisbon', '2024')!;
    expect(lisbon).toMatchObject({ event_id: before.event_id, title: 'Lisbon, 3\u2009–\u20095 May 2024' });
    expect(lisbon.counts.image).toBe(2);
  });

  it('says what was recorded on this day in earlier years, and names `date` when it is no date', async () => {
    const day = (await s.call('GET', '/collections/roll/on-this-day?date=2026-05-04')).body;
    expect(day.date).toBe('2026-05-04');
    // lisbon-2 (4 May 2024) was deleted above; the garden of 2022 stays.
    expect(day.years.map((y: { year: number; items: { folder_path: string }[] }) => [y.year, y.items.map((i) => i.folder_path)])).toEqual([[2022, ['garden.jpg']]]);
    expect((await s.call('GET', '/collections/roll/on-this-day?date=2026-03-04')).body.years).toEqual([expect.objectContaining({ year: 2023 })]);
    for (const bad of ['tomorrow', '2026-02-30', '2026-13-01']) {
      const r = await s.call('GET', `/collections/roll/on-this-day?date=${bad}`);
      expect(r.status, bad).toBe(422);
      expect(JSON.stringify(r.body)).toContain('date');
    }
  });

  it('counts items by year and month, and the undated apart', async () => {
    const t = (await s.call('GET', '/collections/roll/timeline')).body;
    expect(t.undated).toBe(1);
    const byYear = Object.fromEntries(t.years.map((y: { year: number; items: number }) => [y.year, y.items]));
    // Of 2024: the party's second photo (1 January), and May without the deleted lisbon-2.
    expect(byYear).toEqual({ 2021: 1, 2022: 1, 2023: 4, 2024: 4 });
    const y2024 = t.years.find((y: { year: number }) => y.year === 2024);
    expect(y2024.months).toMatchObject([
      { month: 1, items: 1, by_type: { video: 0, audio: 0, image: 1 } },
      { month: 5, items: 3, by_type: { video: 0, audio: 0, image: 3 } },
    ]);
    // A month opens as the items recorded in it.
    const may = y2024.months[1];
    const listed = (await s.call('GET', `/collections/roll/items?limit=100&captured_after=${encodeURIComponent(may.from)}&captured_before=${encodeURIComponent(may.to)}`)).body;
    expect(listed.total).toBe(3);
    expect(listed.items.map((i: { folder_path: string }) => i.folder_path).sort()).toEqual(['home-again.jpg', 'lisbon-1.jpg', 'lisbon-3.jpg']);
    expect((await s.call('GET', '/collections/roll/items?captured_after=May')).status).toBe(422);
  });

  it('keeps another owner out', async () => {
    const other = await s.newKey();
    for (const path of ['/collections/roll/events', '/collections/roll/timeline', '/collections/roll/on-this-day']) expect((await s.call('GET', path, { key: other })).status, path).toBe(404);
  });
});
