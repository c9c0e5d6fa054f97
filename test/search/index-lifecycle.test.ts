import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp } from '../support/app.js';
import type { TestServer } from '../support/server.js';
import { buildAnalysis, DIMS, fixtureItem, FINAL, indexFixtures, LAKE } from './fixtures.js';

/** Row counts of every search table, to see what a delete left behind. */
function counts(s: TestServer): Record<string, number> {
  const db = s.vidx.store.db;
  const one = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
  // Each collection has its own FTS tables (words, own words, parts): sum over all that exist.
  const tables = (prefix: string) => db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'table' AND name GLOB '${prefix}_[0-9]*' AND name NOT GLOB '*_*_*_*'`).pluck().all() as string[];
  // The own words are in shards: fts_own_<collection>_<shard>.
  const ownTables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name GLOB 'fts_own_[0-9]*_[0-9]*' AND name NOT GLOB '*_*_*_*_*'").pluck().all() as string[];
  const sum = (prefix: string, suffix = '') => (prefix === 'fts_own' ? ownTables : tables(prefix)).reduce((n, t) => n + one(`SELECT count(*) AS n FROM ${t}${suffix}`), 0);
  return {
    items: one('SELECT count(*) AS n FROM items'),
    analyses: one('SELECT count(*) AS n FROM item_analysis'),
    episodes: one('SELECT count(*) AS n FROM episodes'),
    segments: one('SELECT count(*) AS n FROM segments'),
    fts: sum('fts_words'),
    own: sum('fts_own'),
    trigram: sum('fts_parts'),
    // The shadow table FTS5 keeps one row per document in, whatever the query planner does.
    ftsDocs: sum('fts_words', '_docsize'),
    trigramDocs: sum('fts_parts', '_docsize'),
    textTables: tables('fts_words').length + ownTables.length + tables('fts_parts').length,
    ownShards: one('SELECT count(*) AS n FROM text_own_shards'),
    vectors: one('SELECT count(*) AS n FROM vectors'),
    passage: one(`SELECT count(*) AS n FROM vecs_passage_${DIMS}`),
    frame: one(`SELECT count(*) AS n FROM vecs_frame_${DIMS}`),
  };
}

describe('search index lifecycle', () => {
  let s: TestServer;
  let alice: string;
  const search = (collection: string, query: string) => s.call('POST', '/search', { key: alice, form: { collection, query } });

  beforeAll(async () => {
    s = await startTestApp({ queryEmbedder: null });
    alice = await s.newKey();
    for (const id of ['one', 'two']) {
      expect((await s.call('POST', '/collections', { key: alice, json: { collection_id: id, name: id } })).status).toBe(201);
    }
  });
  afterAll(() => s.close());

  it('writes items, episodes, segments, the three FTS tables and vectors for an item', () => {
    const stored = indexFixtures(s.vidx, s.dataDir, 'one', { vectors: true });
    expect(stored.final).toMatchObject({ episodes: 3, vectors: 3, replaced: false });
    expect(stored.lake).toMatchObject({ episodes: 2, vectors: 4, replaced: false });
    const c = counts(s);
    expect(c).toMatchObject({ items: 3, analyses: 3, episodes: 7, fts: 7, own: 7, trigram: 7, ftsDocs: 7, trigramDocs: 7, passage: 7, frame: 2, vectors: 9 });
    expect(s.vidx.store.search.spaces().map((x) => [x.kind, x.model, x.dims, x.table_name])).toEqual([
      ['passage', 'test-e5', DIMS, `vecs_passage_${DIMS}`],
      ['frame', 'test-clip', DIMS, `vecs_frame_${DIMS}`],
    ]);
  });

  it('deleting an item removes its FTS rows and vectors', async () => {
    indexFixtures(s.vidx, s.dataDir, 'two', { vectors: true });
    const before = counts(s);
    expect((await search('two', 'penalty')).body.results[0].media_id).toBe('cup-final');
    expect((await s.call('DELETE', '/collections/two/items/cup-final', { key: alice })).status).toBe(200);
    const after = counts(s);
    expect(before.episodes - after.episodes).toBe(3);
    expect(before.fts - after.fts).toBe(3);
    expect(before.own - after.own).toBe(3);
    expect(before.trigram - after.trigram).toBe(3);
    expect(before.ftsDocs - after.ftsDocs).toBe(3);
    expect(before.passage - after.passage).toBe(3);
    expect(before.vectors - after.vectors).toBe(3);
    expect(before.items - after.items).toBe(1);
    expect(before.analyses - after.analyses).toBe(1);
    expect((await search('two', 'penalty')).body.results).toEqual([]);
    // The same item in the other collection is untouched.
    expect((await search('one', 'penalty')).body.results[0].media_id).toBe('cup-final');
  });

  it('deleting a collection removes every FTS row and vector of it', async () => {
    const other = counts(s);
    expect((await s.call('DELETE', '/collections/two', { key: alice })).status).toBe(200);
    // Hidden at once, purged in the background.
    expect((await search('two', 'penalty')).status).toBe(404);
    await s.vidx.collections.purged();
    const c = counts(s);
    // Only collection "one" is left: its 7 episodes, 9 vectors, its two FTS tables (the other two were dropped).
    expect(c).toMatchObject({ items: 3, analyses: 3, episodes: 7, fts: 7, own: 7, trigram: 7, ftsDocs: 7, trigramDocs: 7, passage: 7, frame: 2, vectors: 9, textTables: 3 });
    expect(other.textTables).toBe(6);
    expect(other.episodes).toBeGreaterThan(c.episodes);
    const seg = s.vidx.store.db.prepare('SELECT count(*) AS n FROM segments s LEFT JOIN episodes e ON e.pk = s.episode_pk WHERE e.pk IS NULL').get() as { n: number };
    expect(seg.n).toBe(0);
    expect((await search('one', 'Kuchen')).body.results[0].media_id).toBe('backen');
  });

  it('reindexing replaces the old rows in one transaction and keeps the list position', async () => {
    const pk = s.vidx.store.collections.findById('one')!.pk;
    const before = counts(s);
    const listBefore = (await s.call('GET', '/collections/one/items', { key: alice })).body.items.map((i: { media_id: string }) => i.media_id);
    const changed = buildAnalysis({
      ...FINAL,
      vectors: true,
      episodes: [{ ...FINAL.episodes[0], audio: [[0, 10, 'A friendly match in the rain.']], summary: 'Rain.' }],
    });
    expect(() => s.vidx.searchIndex.storeItem(pk, fixtureItem(s.vidx, s.dataDir, 'one', 'cup-final'), changed, { replace: false })).toThrow(/already/);
    const stored = s.vidx.searchIndex.storeItem(pk, fixtureItem(s.vidx, s.dataDir, 'one', 'cup-final', { title: 'Friendly' }), changed, { replace: true });
    expect(stored).toMatchObject({ episodes: 1, replaced: true });
    const after = counts(s);
    expect(before.episodes - after.episodes).toBe(2);
    expect(before.fts - after.fts).toBe(2);
    expect(before.passage - after.passage).toBe(2);
    expect((await search('one', 'penalty')).body.results).toEqual([]);
    expect((await search('one', 'friendly rain')).body.results[0]).toMatchObject({ media_id: 'cup-final', episode_id: 0, start_time: 0 });
    const listAfter = (await s.call('GET', '/collections/one/items', { key: alice })).body.items.map((i: { media_id: string }) => i.media_id);
    expect(listAfter).toEqual(listBefore);
    expect((await s.call('GET', '/collections/one/items/cup-final', { key: alice })).body.title).toBe('Friendly');
  });

  it('a replace that fails half-way leaves the old version whole', async () => {
    const pk = s.vidx.store.collections.findById('one')!.pk;
    const before = counts(s);
    // Same model, other size: the vector space refuses it after the old rows were already deleted in the transaction.
    const broken = buildAnalysis({ ...LAKE, vectors: true });
    broken.passageVectors = { model: 'test-e5', dims: 16, items: broken.passageVectors!.items.map((v) => ({ ...v, vector: new Float32Array(16).fill(0.25) })) };
    expect(() => s.vidx.searchIndex.storeItem(pk, fixtureItem(s.vidx, s.dataDir, 'one', 'lake-trip'), broken, { replace: true })).toThrow(/16/);
    expect(counts(s)).toEqual(before);
    expect((await search('one', 'sunset')).body.results[0]).toMatchObject({ media_id: 'lake-trip', start_time: 80 });
  });

  it('GET …/analysis returns the summary, duration and episodes', async () => {
    const r = await s.call('GET', '/collections/one/items/backen/analysis', { key: alice });
    expect(r.status).toBe(200);
    expect(r.body.video_summary).toBe('Ein Rezept aus Omas Küche.');
    expect(r.body.video_duration).toBe(80);
    expect(r.body.episodes).toHaveLength(2);
    const [e0] = r.body.episodes;
    expect(Object.keys(e0).sort()).toEqual(['audio', 'end', 'episode_id', 'faces', 'on_screen_text', 'start', 'summary', 'tags', 'thumbnail_url', 'title', 'visual']);
    expect(e0).toMatchObject({ episode_id: 0, start: 0, end: 40, summary: 'Äpfel werden geschält.', thumbnail_url: null, faces: null, tags: ['kitchen'] });
    expect(e0.on_screen_text).toEqual(['Apfelkuchen nach Omas Rezept']);
    expect(e0.audio[0]).toEqual({ start: 0, end: 6, text: 'Heute backen wir zusammen.', speaker: null });
    expect(e0.visual[1]).toEqual({ start: 20, end: 40, summary: 'Eine Schrifttafel' });
  });

  it('GET …/analysis follows the item’s visibility and has defaults for items never analysed', async () => {
    const bob = await s.newKey();
    expect((await s.call('GET', '/collections/one/items/backen/analysis', { key: bob })).status).toBe(404);
    expect((await s.call('GET', '/collections/one/items/backen/analysis?is_public=true', { key: bob })).status).toBe(404);
    expect((await s.call('PUT', '/collections/one', { json: { is_public: true } })).status).toBe(200);
    expect((await s.call('GET', '/collections/one/items/backen/analysis?is_public=true', { key: bob })).status).toBe(200);
    expect((await s.call('GET', '/collections/one/items/nope/analysis', { key: alice })).status).toBe(404);
    expect((await s.call('GET', '/collections/one/items/bad.id/analysis', { key: alice })).status).toBe(422);

    const at = new Date().toISOString();
    s.vidx.store.items.insert({
      cursor: '01900000-0000-7000-8000-000000000000', collection_pk: s.vidx.store.collections.findById('one')!.pk, media_id: 'bare',
      type: 'video', title: null, src: null, thumbnail: null, duration: 12, additional_metadata: null, created_at: at, updated_at: at,
    });
    expect((await s.call('GET', '/collections/one/items/bare/analysis', { key: alice })).body).toEqual({ video_summary: '', video_duration: 12, language: null, subtitle_languages: [], transcript_language: null, summary_language: null, episodes: [], speakers: [], speakers_model: null });
  });

  it('documents both endpoints in the OpenAPI document', async () => {
    const doc = (await s.call('GET', '/openapi.json', { key: null })).body;
    expect(doc.paths['/collections/{collection_id}/items/{media_id}/analysis'].get).toBeDefined();
    expect(doc.components.schemas.AnalysisEpisode.properties).toHaveProperty('episode_id');
    expect(doc.components.schemas.SearchResult.properties).toHaveProperty('start_time');
  });

  it('a collection delete interrupted part-way is hidden at once and finished at the next start', async () => {
    expect((await s.call('POST', '/collections', { key: alice, json: { collection_id: 'three', name: 'three' } })).status).toBe(201);
    indexFixtures(s.vidx, s.dataDir, 'three', { vectors: true });
    const store = s.vidx.store;
    const pk = store.collections.findById('three')!.pk;
    const before = counts(s);
    // What DELETE does first, then one batch of the purge, then the process stops.
    store.db.transaction(() => store.collections.markDeleting(pk)).immediate();
    store.db.transaction(() => s.vidx.searchIndex.removeCollection(pk)).immediate();
    expect((await s.call('GET', '/collections/three', { key: alice })).status).toBe(404);
    expect((await search('three', 'penalty')).status).toBe(404);
    expect((await s.call('GET', '/collections', { key: alice })).body.collections.map((c: { collection_id: string }) => c.collection_id)).not.toContain('three');
    // The id is free again at once.
    expect((await s.call('POST', '/collections', { key: alice, json: { collection_id: 'three', name: 'again' } })).status).toBe(201);
    const dataDir = s.dataDir;
    await s.close({ keepData: true });
    s = await startTestApp({ queryEmbedder: null, dataDir });
    await vi.waitFor(() => expect(s.vidx.store.collections.deleting()).toEqual([]), { timeout: 10_000 });
    const after = counts(s);
    expect(before.episodes - after.episodes).toBe(7);
    expect(before.vectors - after.vectors).toBe(9);
    expect(before.items - after.items).toBe(3);
    expect(after.textTables).toBe(before.textTables - 3);
    expect(after.ownShards).toBe(before.ownShards - 1);
    expect((await s.call('GET', '/collections/three', { key: alice })).body.name).toBe('again');
  });
});
