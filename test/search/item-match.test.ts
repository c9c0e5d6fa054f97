/**
 * A search that matches only the item (its title, the place it was recorded at, its metadata) says nothing
 * of any moment (issue 42): the item opens at its start and the passage shows the item's words.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../support/app.js';
import type { TestServer } from '../support/server.js';
import { buildAnalysis, fixtureItem } from './fixtures.js';

type Line = [number, number, string];
const episodesOf = (lines: string[]) => lines.map((text, i) => ({ start: i * 20, end: (i + 1) * 20, summary: '', audio: [[i * 20 + 3, i * 20 + 9, text]] as Line[] }));
const LISBON = { city: 'Lisbon', district: null, region: 'Lisbon', country: 'Portugal', country_code: 'PT' };

interface Hit { media_id: string; episode_id: number; start_time: number; content: string; src: string }

describe('matches of the item alone', () => {
  let s: TestServer;
  const search = async (query: string) => {
    const r = await s.call('POST', '/search', { json: { collection: 'trips', query } });
    expect(r.status, query).toBe(200);
    return (r.body as { results: Hit[] }).results;
  };

  beforeAll(async () => {
    s = await startTestApp();
    expect((await s.call('POST', '/collections', { json: { collection_id: 'trips', name: 'Trips' } })).status).toBe(201);
    const pk = s.vidx.store.collections.findById('trips')!.pk;
    const item = fixtureItem(s.vidx, s.dataDir, 'trips', 'tram', {
      title: 'Tram 28 ride', src: 'https://example.invalid/tram.mp4', additional_metadata: { camera: 'Pocket cam' },
      latitude: 38.7223, longitude: -9.1393, place: JSON.stringify(LISBON), place_words: 'Lisbon Lissabon Lisboa Portugal',
    });
    const lines = ['The doors close and we start.', 'Up the steep hill now.', 'The castle appears on the left.', 'Last stop, everybody out.'];
    s.vidx.searchIndex.storeItem(pk, item, buildAnalysis({ language: 'en', summary: '', episodes: episodesOf(lines) }), { replace: false });
  });
  afterAll(() => s.close());

  it('opens a place match at the start, with the place and the first line', async () => {
    const results = await search('Lissabon');
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ media_id: 'tram', episode_id: 0, start_time: 0, content: 'Lisbon, Portugal — The doors close and we start.' });
    expect(results[0].src).toBe('https://example.invalid/tram.mp4#t=0');
  });

  it('opens a title or metadata match at the start, with the words that matched', async () => {
    expect(await search('ride')).toEqual([expect.objectContaining({ episode_id: 0, start_time: 0, content: 'Tram 28 ride — The doors close and we start.' })]);
    expect(await search('pocket')).toEqual([expect.objectContaining({ start_time: 0, content: 'Pocket cam — The doors close and we start.' })]);
  });

  it('still opens a line match at its line, the title lifting it', async () => {
    const [first] = await search('tram castle');
    expect(first).toMatchObject({ episode_id: 2, start_time: 43, content: 'The castle appears on the left.' });
  });
});
