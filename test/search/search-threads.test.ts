import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueryEmbedder } from '../../src/services/search/index.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { SPEECH_NOT_TRANSCRIBED_KEY } from '../../src/analysis/speech-warning.js';
import { warning } from '../../src/analysis/warnings.js';
import { buildAnalysis, fixtureItem, indexFixtures, topicVector } from './fixtures.js';

/** Query vectors by keyword, so the threads' searches ask the request thread's embedder and vector index. */
const embedder: QueryEmbedder = {
  async embed(query) {
    return { vector: topicVector(/golden hour|dusk/i.test(query) ? 'nature' : /penalty|football/i.test(query) ? 'sport' : /bake|oven/i.test(query) ? 'baking' : 'music'), minSimilarity: 0.5 };
  },
};

/** Searches of every kind the threads answer: words, typos, filters, dates, one item, a page of one, nothing. */
const QUERIES: Record<string, unknown>[] = [
  { query: 'penalty' },
  { query: 'golden hour' },
  { query: 'Kuchen' },
  { query: 'penalti shott' },
  { query: 'captain taking shots', limit: 1 },
  { query: 'penalty', media_id: 'cup-final' },
  { query: 'water', media_type: 'video' },
  { query: 'evening', captured_after: '2000-01-01T00:00:00Z' },
  { query: 'football 2024' },
  { query: 'penalty', threshold: 0.9 },
  { query: 'string quartet' },
  { query: 'backen', search_language: 'de' },
];

/** A signed link's signature and expiry depend on the second it was made: compare the rest. */
const unsigned = (body: unknown) => JSON.parse(JSON.stringify(body).replace(/\?exp=[^"]*/g, '?signed'));

describe('searches answered on search threads', () => {
  let s: TestServer;
  let items = 0;
  const search = (form: Record<string, unknown>) => s.call('POST', '/search', { form: { collection: 'threads', ...form } });
  const answered = () => s.vidx.search.counts().answered;
  /** Stores a clip that says `said`, or (`transcribed` false) one whose speech was found but never transcribed. */
  const store = (mediaId: string, said: string, transcribed: boolean) => {
    const pk = s.vidx.store.collections.findById('threads')!.pk;
    const analysis = buildAnalysis({ language: 'en', summary: said, episodes: [{ start: 0, end: 10, summary: said, audio: [[0, 5, said]] }] });
    const untold = { transcript: [], transcriptSource: 'none' as const, warnings: [warning(SPEECH_NOT_TRANSCRIBED_KEY, { reason: 'missing: run `vidx models pull whisper`' })] };
    s.vidx.searchIndex.storeItem(pk, fixtureItem(s.vidx, s.dataDir, 'threads', mediaId), transcribed ? analysis : { ...analysis, ...untold }, { replace: false });
    items++;
  };

  beforeAll(async () => {
    s = await startTestServer({ queryEmbedder: embedder, env: { VIDX_SEARCH_THREADS: '2' } });
    expect((await s.call('POST', '/collections', { json: { collection_id: 'threads', name: 'Threads' } })).status).toBe(201);
    indexFixtures(s.vidx, s.dataDir, 'threads', { vectors: true });
    await s.vidx.search.warm();
  });
  afterAll(() => s.close());

  it('starts its threads and says so in GET /health', async () => {
    const health = await s.call('GET', '/health');
    expect(health.body.search).toMatchObject({ threads: 2, ready: 2 });
    const before = answered();
    expect((await search({ query: 'penalty' })).body.results[0]).toMatchObject({ media_id: 'cup-final', episode_id: 1 });
    expect(answered()).toBe(before + 1);
  });

  it('finds what a write stored as soon as it landed, while other searches run: never a stale answer', async () => {
    let busy = true;
    const others = (async () => {
      let n = 0;
      while (busy) n += (await search({ query: 'penalty' })).status === 200 ? 1 : 0;
      return n;
    })();
    const codes = (body: { notices: { code: string }[] }) => body.notices.map((n) => n.code);
    try {
      for (let i = 0; i < 12; i++) {
        store(`fresh-${i}`, `A marimba${i} plays by the harbour.`, true);
        const found = await search({ query: `marimba${i}` });
        expect(found.status).toBe(200);
        expect(found.body.results.map((r: { media_id: string }) => r.media_id)).toEqual([`fresh-${i}`]);
        // What the notices cache hears of too: speech that was never transcribed.
        store(`untold-${i}`, `A quiet garden${i}.`, false);
        expect(codes((await search({ query: `marimba${i}` })).body)).toContain('speech_missing');
        for (const id of [`fresh-${i}`, `untold-${i}`]) expect((await s.call('DELETE', `/collections/threads/items/${id}`)).status).toBe(200);
        const gone = await search({ query: `marimba${i}` });
        expect(gone.body.results).toEqual([]);
        expect(codes(gone.body)).not.toContain('speech_missing');
      }
    } finally {
      busy = false;
    }
    expect(await others).toBeGreaterThan(0);
    expect(items).toBe(24);
  });

  it('says a Problem as the request thread does: unknown collection, item and folder', async () => {
    const before = answered();
    const unknownCollection = await s.call('POST', '/search', { form: { collection: 'nope', query: 'penalty' } });
    expect(unknownCollection.status).toBe(404);
    const unknownItem = await search({ query: 'penalty', media_id: 'nope' });
    expect(unknownItem.status).toBe(404);
    expect(JSON.stringify(unknownItem.body)).toContain('nope');
    const unknownFolder = await search({ query: 'penalty', folder_id: 'nope' });
    expect(unknownFolder.status).toBe(404);
    expect(answered()).toBe(before + 3);
  });

  it('answers the searches of a thread that dies, and starts another in its place', async () => {
    const [first] = s.vidx.search.threadHandles();
    const asked = Array.from({ length: 8 }, () => search({ query: 'golden hour' }));
    await first!.terminate();
    for (const r of await Promise.all(asked)) expect(r.body.results[0]).toMatchObject({ media_id: 'lake-trip', episode_id: 1 });
    await s.vidx.search.warm();
    expect(s.vidx.search.counts().ready).toBe(2);
    expect(s.vidx.search.threadHandles()).not.toContain(first);
    const before = answered();
    expect((await search({ query: 'Kuchen' })).body.results[0]).toMatchObject({ media_id: 'backen' });
    expect(answered()).toBe(before + 1);
  });

  // Last: it ends the threads, to ask the request thread the same searches.
  it('gives the same answers as the request thread alone, in the same order with the same scores', async () => {
    const before = answered();
    const onThreads = [];
    for (const q of QUERIES) onThreads.push(await search(q));
    expect(answered()).toBe(before + QUERIES.length);
    await s.vidx.search.close();
    expect(s.vidx.search.counts()).toMatchObject({ threads: 0, ready: 0 });
    for (const [i, q] of QUERIES.entries()) {
      const alone = await search(q);
      expect(alone.status).toBe(onThreads[i]!.status);
      expect(unsigned(onThreads[i]!.body)).toEqual(unsigned(alone.body));
    }
    // The list holds real answers, not empty ones.
    expect(onThreads.filter((r) => r.body.results?.length > 0).length).toBeGreaterThanOrEqual(9);
  });
});
