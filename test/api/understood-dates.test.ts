import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeVideo } from '../support/folder-media.js';
import { movableClock } from '../support/movable-clock.js';
import { runCli } from '../support/cli.js';
import { ADMIN_KEY, settledTask, startTestServer, type TestServer } from '../support/server.js';
import { callJson, mcpClient } from '../mcp/clients.js';

const LISBON = '+38.7223-009.1393/';
const VIENNA = '+48.2082+016.3738/';
const MUNICH = '+48.1374+011.5755/';

/** The items: on-screen words, when (noon UTC) and where each was recorded. */
const ITEMS: { id: string; text: string; at: string; where: string }[] = [
  { id: 'tram', text: 'TRAM', at: '2019-07-14', where: LISBON },
  { id: 'harbour', text: 'HARBOUR', at: '2018-05-20', where: LISBON },
  { id: 'wheel', text: 'RIESENRAD', at: '2023-07-10', where: VIENNA },
  { id: 'punch', text: 'PUNSCH', at: '2023-01-15', where: VIENNA },
  { id: 'candles', text: 'CANDLES', at: '2022-12-25', where: MUNICH },
  { id: 'oma21', text: 'OMA CAKE', at: '2021-03-05', where: MUNICH },
  { id: 'oma20', text: 'OMA GARDEN', at: '2020-06-01', where: MUNICH },
  // Recorded in 2023, and "2019" is written in it: a search for 2019 must still find it.
  { id: 'party', text: 'PARTY 2019', at: '2023-09-09', where: MUNICH },
  { id: 'beach', text: 'BEACH', at: '2025-08-01', where: LISBON },
  { id: 'snow', text: 'SNOW', at: '2024-02-02', where: VIENNA },
  { id: 'market', text: 'MARKET', at: '2024-05-18', where: LISBON },
];

/**
 * Issue 47 part 5: dates (English and German) and the collection's places in the words of a search become
 * filters, the answer says what was understood, and words as typed are still found outside the filters.
 */
describe('dates and places inside the search words', () => {
  let s: TestServer;
  // "Today" is 10 November 2025: last summer is 2025's, last year 2024.
  const time = movableClock(Date.parse('2025-11-10T12:00:00Z'));

  const search = async (query: string, more: Record<string, unknown> = {}) => {
    const r = await s.call('POST', '/search', { json: { query, collection: 'trips', limit: 20, ...more } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return { understood: r.body.understood, ids: (r.body.results as { media_id: string }[]).map((x) => x.media_id) };
  };

  beforeAll(async () => {
    s = await startTestServer({ queryEmbedder: null, time });
    await s.call('POST', '/collections', { json: { collection_id: 'trips', name: 'Trips' } });
    await Promise.all(ITEMS.map((i) => makeVideo(join(s.mediaDir, `${i.id}.mp4`), i.text, 2, { creation_time: `${i.at}T12:00:00Z`, location: i.where })));
    const tasks = [];
    for (const i of ITEMS) {
      const r = await s.call('POST', '/index', { json: { collection: 'trips', video: { path: join(s.mediaDir, `${i.id}.mp4`), media_id: i.id } } });
      expect(r.status, JSON.stringify(r.body)).toBe(202);
      tasks.push(r.body.task_id as string);
    }
    for (const id of tasks) expect((await settledTask(s, id, 240_000)).status).toBe('completed');
  }, 300_000);
  afterAll(async () => {
    await s?.close();
  });

  it('reads a place of the collection and a year: "Lisbon 2019"', async () => {
    const r = await search('Lisbon 2019');
    expect(r.understood).toEqual({ place: 'Lisbon', from: '2019-01-01', to: '2019-12-31', words: '' });
    expect(r.ids).toEqual(['tram']);
  });

  it('reads German places, seasons and holidays: "Wien im Sommer 2023", "Weihnachten 2022"', async () => {
    const wien = await search('Wien im Sommer 2023');
    expect(wien.understood).toEqual({ place: 'Wien', from: '2023-06-01', to: '2023-08-31', words: '' });
    expect(wien.ids).toEqual(['wheel']);
    for (const q of ['Weihnachten 2022', 'Christmas 2022']) {
      const xmas = await search(q);
      expect(xmas.understood, q).toEqual({ place: null, from: '2022-12-24', to: '2022-12-26', words: '' });
      expect(xmas.ids, q).toEqual(['candles']);
    }
  });

  it('reads a month and a year, and keeps the other words as words: "May 2024", "Oma 2021"', async () => {
    const may = await search('May 2024');
    expect(may.understood).toEqual({ place: null, from: '2024-05-01', to: '2024-05-31', words: '' });
    expect(may.ids).toEqual(['market']);
    const oma = await search('Oma 2021');
    expect(oma.understood).toEqual({ place: null, from: '2021-01-01', to: '2021-12-31', words: 'Oma' });
    expect(oma.ids).toEqual(['oma21']);
  });

  it('lists what was recorded in a year, oldest first, and still finds the moment that shows "2019"', async () => {
    const r = await search('2019');
    expect(r.understood).toEqual({ place: null, from: '2019-01-01', to: '2019-12-31', words: '' });
    expect(r.ids[0]).toBe('tram');
    expect(r.ids).toContain('party');
    expect(r.ids).not.toContain('harbour');
  });

  it('counts relative dates from the server\'s clock: "last summer", "letztes Jahr"', async () => {
    const summer = await search('last summer');
    expect(summer.understood).toEqual({ place: null, from: '2025-06-01', to: '2025-08-31', words: '' });
    expect(summer.ids).toEqual(['beach']);
    const year = await search('letztes Jahr');
    expect(year.understood).toEqual({ place: null, from: '2024-01-01', to: '2024-12-31', words: '' });
    expect(year.ids).toEqual(['snow', 'market']);
    time.pass(365 * 86_400_000);
    expect((await search('letztes Jahr')).understood).toMatchObject({ from: '2025-01-01', to: '2025-12-31' });
    time.pass(-365 * 86_400_000);
  });

  it('says what it understood when nothing was recorded then and there', async () => {
    const r = await search('Lisbon 2015');
    expect(r.understood).toEqual({ place: 'Lisbon', from: '2015-01-01', to: '2015-12-31', words: '' });
    expect(r.ids).toEqual([]);
    // Paris is no place of this collection: it stays a word, and nothing holds it.
    const paris = await search('Paris 2019');
    expect(paris.understood).toEqual({ place: null, from: '2019-01-01', to: '2019-12-31', words: 'Paris' });
    expect(paris.ids).toEqual([]);
  });

  it('leaves understood out for plain words, and when understanding is turned off', async () => {
    expect((await search('tram')).understood).toBeUndefined();
    const off = await search('Lisbon 2019', { understand: false });
    expect(off.understood).toBeUndefined();
    // As typed, "Lisbon" is a word again: Lisbon's items of every year are found.
    expect(off.ids).toEqual(expect.arrayContaining(['tram', 'harbour']));
  });

  it('keeps the request\'s own filters: a date range narrows what the words say', async () => {
    const r = await search('2023', { captured_after: '2023-06-01T00:00:00Z' });
    expect(r.understood).toMatchObject({ from: '2023-01-01', to: '2023-12-31' });
    expect(r.ids.slice(0, 2)).toEqual(['wheel', 'party']);
    expect(r.ids).not.toContain('punch');
    // A place named in `near` wins: "Lisbon" in the words is then a word.
    const near = await search('Lisbon 2019', { near: 'Wien' });
    expect(near.understood).toEqual({ place: null, from: '2019-01-01', to: '2019-12-31', words: 'Lisbon' });
    expect(near.ids).toEqual([]);
  });

  it('lists only the item asked for with media_id', async () => {
    expect((await search('2019', { media_id: 'party' })).ids).toEqual(['party']);
    expect((await search('2019', { media_id: 'harbour' })).ids).toEqual([]);
    expect((await search('Lisbon', { media_id: 'harbour' })).ids).toEqual(['harbour']);
  });

  it('knows a place as soon as an item recorded there is stored', async () => {
    const before = await search('Berlin 2019');
    expect(before.understood).toMatchObject({ place: null, words: 'Berlin' });
    await makeVideo(join(s.mediaDir, 'wall.mp4'), 'WALL', 2, { creation_time: '2019-11-09T12:00:00Z', location: '+52.5163+013.3777/' });
    const r = await s.call('POST', '/index', { json: { collection: 'trips', video: { path: join(s.mediaDir, 'wall.mp4'), media_id: 'wall' } } });
    expect((await settledTask(s, r.body.task_id, 240_000)).status).toBe('completed');
    const after = await search('Berlin 2019');
    expect(after.understood).toEqual({ place: 'Berlin', from: '2019-01-01', to: '2019-12-31', words: '' });
    expect(after.ids).toEqual(['wall']);
  }, 120_000);

  it('refuses a bad understand with a 422 naming the field', async () => {
    for (const understand of ['yes', 1, null]) {
      const r = await s.call('POST', '/search', { json: { query: '2019', collection: 'trips', understand } });
      expect(r.status).toBe(422);
      expect(JSON.stringify(r.body)).toMatch(/understand/);
    }
  });

  it('the MCP search tool reports what it understood and takes understand: false', async () => {
    const client = await mcpClient('http', s.url, ADMIN_KEY);
    try {
      const got = await callJson(client, 'search', { collection: 'trips', query: 'Lisbon 2019' });
      expect(got.understood).toEqual({ place: 'Lisbon', from: '2019-01-01', to: '2019-12-31', words: '' });
      expect(got.moments.map((m: { media_id: string }) => m.media_id)).toEqual(['tram']);
      const off = await callJson(client, 'search', { collection: 'trips', query: 'Lisbon 2019', understand: false });
      expect(off.understood).toBeUndefined();
    } finally {
      await client.close();
    }
  });

  it('the CLI prints an understood line before the results, and gives it in --json', async () => {
    const env = { VIDX_API_KEY: ADMIN_KEY };
    const text = await runCli(['search', 'Lisbon 2019', '--collection', 'trips', '--url', s.url], env, { timeoutMs: 60_000 });
    expect(text.code, text.stderr).toBe(0);
    const lines = text.stdout.split('\n');
    expect(lines[0]).toBe('understood: in Lisbon, 2019-01-01 – 2019-12-31');
    expect(lines.slice(1).join('\n')).toMatch(/tram/);
    const json = await runCli(['search', 'Oma 2021', '--collection', 'trips', '--json', '--url', s.url], env, { timeoutMs: 60_000 });
    expect(JSON.parse(json.stdout).understood).toEqual({ place: null, from: '2021-01-01', to: '2021-12-31', words: 'Oma' });
    const typed = await runCli(['search', 'Lisbon 2019', '--collection', 'trips', '--as-typed', '--url', s.url], env, { timeoutMs: 60_000 });
    expect(typed.stdout).not.toMatch(/understood/);
  }, 120_000);
});
