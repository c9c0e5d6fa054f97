import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';
import { indexFixtures } from './fixtures.js';

describe('POST /search (words and word parts, no models)', () => {
  let s: TestServer;
  let alice: string;
  let bob: string;
  const search = (form: Record<string, unknown>, key?: string) => s.call('POST', '/search', { key: key ?? alice, form: { collection: 'demo', ...form } });

  beforeAll(async () => {
    // Answered on a search thread, as production answers them: the expected answers hold there too.
    s = await startTestServer({ queryEmbedder: null, env: { VIDX_SEARCH_THREADS: '1' } });
    await s.vidx.search.warm();
    alice = await s.newKey();
    bob = await s.newKey();
    expect((await s.call('POST', '/collections', { key: alice, json: { collection_id: 'demo', name: 'Demo' } })).status).toBe(201);
    expect((await s.call('POST', '/collections', { key: alice, json: { collection_id: 'other', name: 'Other' } })).status).toBe(201);
    indexFixtures(s.vidx, s.dataDir, 'demo');
  });
  afterAll(() => s.close());

  it('puts the matching episode on top and starts at the matching transcript segment', async () => {
    const r = await search({ query: 'penalty' });
    expect(r.status).toBe(200);
    expect(r.body.results.length).toBeGreaterThan(0);
    const top = r.body.results[0];
    expect(top).toMatchObject({ media_id: 'cup-final', episode_id: 1, start_time: 52.5 });
    expect(top.content).toContain('penalty shot');
    expect(top.score).toBeGreaterThan(0);
    expect(top.score).toBeLessThanOrEqual(1);
    // Stemming: "shots" and "takes" meet "shot" and "takes"; the moment is still the penalty.
    const stemmed = await search({ query: 'captain taking shots' });
    expect(stemmed.body.results[0]).toMatchObject({ media_id: 'cup-final', episode_id: 1, start_time: 52.5 });
    expect(s.vidx.search.counts().answered).toBe(2);
  });

  it('answers with exactly the SPEC 2.7 fields and the documented vidx extras', async () => {
    const top = (await search({ query: 'penalty' })).body.results[0];
    expect(Object.keys(top).sort()).toEqual(['audio', 'captured_at', 'captured_at_source', 'computer_vision', 'content', 'episode_id', 'image_url', 'media_id', 'media_type', 'place', 'score', 'src', 'start_time', 'title']);
    expect(top.media_type).toBe('video');
    expect(top.audio).toContainEqual({ start: 52.5, end: 58, text: 'The captain takes the penalty shot.' });
    expect(top.computer_vision).toEqual([{ start: 30, end: 75, summary: 'A player kicks the ball' }]);
    expect(Number.isInteger(top.episode_id)).toBe(true);
    expect(top.src).toBe('https://example.invalid/final.mp4#t=52.5');
    expect(top.image_url).toMatch(/\/files\/collections\/\d+\/cup-final\/thumb\.jpg\?exp=\d+&sig=/);
    const img = await fetch(top.image_url);
    expect(img.status).toBe(200);
    expect(await img.text()).toBe('thumbnail of cup-final');
  });

  it('finds a German compound from a part of it, at the on-screen moment', async () => {
    const r = await search({ query: 'Kuchen' });
    expect(r.status).toBe(200);
    expect(r.body.results[0]).toMatchObject({ media_id: 'backen', episode_id: 0, start_time: 20 });
    expect(r.body.results[0].content).toContain('Apfelkuchen');
    // Partial words too.
    expect((await search({ query: 'pena' })).body.results[0]).toMatchObject({ media_id: 'cup-final', episode_id: 1 });
  });

  it('matches umlauts written as umlauts, without dots, or transliterated', async () => {
    for (const query of ['München', 'Munchen', 'Muenchen', 'MÜNCHEN', 'Bäckerei', 'Baeckerei']) {
      const r = await search({ query });
      expect(r.body.results[0], query).toMatchObject({ media_id: 'backen', episode_id: 1, start_time: 50 });
    }
    for (const query of ['Straße', 'Strasse', 'STRASSE']) {
      expect((await search({ query })).body.results[0], query).toMatchObject({ media_id: 'backen', episode_id: 1, start_time: 50 });
    }
    // The transcript segment, not the visual entry at 0 s that shows the apples.
    const apples = await search({ query: 'Äpfel klein schneiden' });
    expect(apples.body.results[0]).toMatchObject({ media_id: 'backen', episode_id: 0, start_time: 6 });
  });

  it('finds visual tags and moves to the visual entry', async () => {
    const r = await search({ query: 'sunset over the lake' });
    expect(r.body.results[0]).toMatchObject({ media_id: 'lake-trip', episode_id: 1, start_time: 80 });
    // The lake item was stored with its media file: src is a signed /files link with the moment.
    expect(r.body.results[0].src).toMatch(/\/files\/collections\/\d+\/lake-trip\/media\.mp4\?exp=\d+&sig=[^#]+#t=80$/);
    const media = await fetch(r.body.results[0].src);
    expect(media.status).toBe(200);
  });

  it('searches the title and metadata of an item', async () => {
    // Metadata names the whole item: it opens at its start, the passage showing the metadata and its first line.
    const r = await search({ query: 'Bodensee' });
    expect(r.body.results).toEqual([expect.objectContaining({ media_id: 'lake-trip', episode_id: 0, start_time: 0, content: 'Bodensee — We drove for hours to get out of town.' })]);
    const t = await search({ query: 'Omas Rezept' });
    expect(t.body.results[0].media_id).toBe('backen');
  });

  it('never breaks on FTS5 syntax in the query', async () => {
    const queries = [
      '"penalty" OR (shot* NEAR/2 -x) col:foo',
      'penalty"',
      '"unbalanced quote',
      'AND',
      'OR NOT NEAR',
      '***',
      '^penalty',
      'title:penalty',
      '{title transcript}: penalty',
      'penalty + shot - goal',
      "captain's",
      '(((',
      'NEAR(penalty shot, 2)',
      "'; DROP TABLE episodes; --",
      '\u0000penalty',
      'x'.repeat(1000),
    ];
    for (const query of queries) {
      const r = await search({ query });
      expect(r.status, query).toBe(200);
      expect(Array.isArray(r.body.results), query).toBe(true);
    }
    const ops = await search({ query: '"penalty" OR (shot* NEAR/2 -x) col:foo' });
    expect(ops.body.results[0]).toMatchObject({ media_id: 'cup-final', episode_id: 1 });
    const phrase = await search({ query: '"penalty shot"' });
    expect(phrase.body.results[0]).toMatchObject({ media_id: 'cup-final', episode_id: 1, start_time: 52.5 });
  });

  it('answers an empty list when nothing matches', async () => {
    for (const query of ['xylophone', 'zzzzqqq', '!!!', 'the']) {
      const r = await search({ query });
      expect(r.status, query).toBe(200);
      expect(r.body.results, query).toEqual([]);
    }
    const empty = await s.call('POST', '/search', { key: alice, form: { query: 'penalty', collection: 'other' } });
    expect(empty.body.results).toEqual([]);
  });

  it('filters by media_id, honours limit and threshold', async () => {
    const all = await search({ query: 'the fans and the teig' });
    expect(new Set(all.body.results.map((x: { media_id: string }) => x.media_id)).size).toBeGreaterThan(1);
    const one = await search({ query: 'the fans and the teig', media_id: 'backen' });
    expect(one.body.results.length).toBeGreaterThan(0);
    expect(one.body.results.every((x: { media_id: string }) => x.media_id === 'backen')).toBe(true);
    expect((await search({ query: 'penalty', media_id: 'lake-trip' })).body.results).toEqual([]);
    expect((await search({ query: 'penalty', media_id: 'nope' })).status).toBe(404);

    const many = await search({ query: 'the', limit: 100 });
    expect(many.status).toBe(200);
    const broad = await search({ query: 'fans crowd stadium season teams match night' });
    expect(broad.body.results.length).toBeGreaterThan(1);
    const limited = await search({ query: 'fans crowd stadium season teams match night', limit: 1 });
    expect(limited.body.results).toHaveLength(1);
    // Signed links carry their expiry second: two requests may straddle a second boundary.
    const unsigned = (r: { image_url: string }) => ({ ...r, image_url: r.image_url.replace(/\?exp=.*$/, '') });
    expect(unsigned(limited.body.results[0])).toEqual(unsigned(broad.body.results[0]));

    const scores = broad.body.results.map((x: { score: number }) => x.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    const cut = (scores[0] + scores[scores.length - 1]) / 2;
    const above = await search({ query: 'fans crowd stadium season teams match night', threshold: cut });
    expect(above.body.results.length).toBeGreaterThan(0);
    expect(above.body.results.length).toBeLessThan(scores.length);
    expect(above.body.results.every((x: { score: number }) => x.score >= cut)).toBe(true);
    expect((await search({ query: 'penalty', threshold: 1.01 })).status).toBe(422);
    expect((await search({ query: 'penalty', limit: 0 })).status).toBe(422);
  });

  it('hides another owner’s collection behind 404 and validates the body', async () => {
    expect((await search({ query: 'penalty' }, bob)).status).toBe(404);
    expect((await search({ query: 'penalty', collection: 'no-such' })).status).toBe(404);
    // Admins read everything.
    expect((await search({ query: 'penalty' }, s.adminKey)).body.results[0].media_id).toBe('cup-final');
    expect((await search({ query: '' })).status).toBe(422);
    expect((await search({ query: 'x', extra: 1 })).status).toBe(422);
    // Plain JSON works as well as the form.
    const json = await s.call('POST', '/search', { key: alice, json: { query: 'penalty', collection: 'demo' } });
    expect(json.body.results[0].media_id).toBe('cup-final');
  });
});
