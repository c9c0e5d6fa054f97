import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueryEmbedder, VectorSpace } from '../../src/services/search/index.js';
import { startTestApp } from '../support/app.js';
import type { TestServer } from '../support/server.js';
import { indexFixtures, topicVector, type TOPICS } from './fixtures.js';

/** Deterministic "embeddings": a query names its topic with a keyword; anything else points at music. */
function topicEmbedder(calls: VectorSpace[]): QueryEmbedder {
  const topicOf = (q: string): keyof typeof TOPICS =>
    /golden hour|dusk/i.test(q) ? 'nature' : /penalty|football/i.test(q) ? 'sport' : /bake|oven/i.test(q) ? 'baking' : 'music';
  return {
    async embed(query, space) {
      calls.push(space);
      if (/no vectors/.test(query)) return null;
      return { vector: topicVector(topicOf(query)), minSimilarity: 0.5 };
    },
  };
}

describe('POST /search with a query embedder', () => {
  let s: TestServer;
  const calls: VectorSpace[] = [];
  const search = (form: Record<string, unknown>) => s.call('POST', '/search', { form: { collection: 'sem', ...form } });

  beforeAll(async () => {
    // Answered on a search thread, which asks the request thread for the query's vectors.
    s = await startTestApp({ queryEmbedder: topicEmbedder(calls), env: { VIDX_SEARCH_THREADS: '1' } });
    await s.vidx.search.warm();
    expect((await s.call('POST', '/collections', { json: { collection_id: 'sem', name: 'Semantic' } })).status).toBe(201);
    expect((await s.call('POST', '/collections', { json: { collection_id: 'words-only', name: 'No vectors' } })).status).toBe(201);
    indexFixtures(s.vidx, s.dataDir, 'sem', { vectors: true });
    indexFixtures(s.vidx, s.dataDir, 'words-only');
  });
  afterAll(() => s.close());

  it('finds an episode by meaning alone and starts at the matching frame', async () => {
    calls.length = 0;
    const r = await search({ query: 'golden hour' });
    expect(r.status).toBe(200);
    expect(r.body.results[0]).toMatchObject({ media_id: 'lake-trip', episode_id: 1, start_time: 85 });
    // Nothing matched in words: the content is the episode summary.
    expect(r.body.results[0].content).toBe('Evening at the water.');
    expect(calls.map((c) => [c.kind, c.model, c.dims]).sort()).toEqual([
      ['frame', 'test-clip', 8],
      ['passage', 'test-e5', 8],
    ]);
  });

  it('fuses words and vectors: an episode found by both ranks above one found by either', async () => {
    const r = await search({ query: 'penalty' });
    expect(r.body.results[0]).toMatchObject({ media_id: 'cup-final', episode_id: 1, start_time: 52.5 });
    const ids = r.body.results.map((x: { media_id: string; episode_id: number }) => `${x.media_id}/${x.episode_id}`);
    // Episode 0 of the final is about football too, found by its vector only.
    expect(ids).toContain('cup-final/0');
    expect(r.body.results[0].score).toBeGreaterThan(r.body.results[1].score);
    expect(r.body.results[0].score).toBeLessThanOrEqual(1);
  });

  it('drops vectors under the similarity floor, so an unrelated query finds nothing', async () => {
    // Frame vectors were searched by the words: nothing is missing to say.
    expect((await search({ query: 'string quartet' })).body).toEqual({ results: [], notices: [], corrected: [], searched_query: null, original_query: null });
    expect((await search({ query: 'golden hour', media_id: 'backen' })).body.results).toEqual([]);
    expect((await search({ query: 'golden hour', media_id: 'lake-trip' })).body.results[0]).toMatchObject({ episode_id: 1, start_time: 85 });
  });

  it('searches words only when the embedder cannot serve the space or the collection has no vectors', async () => {
    expect((await search({ query: 'penalty no vectors' })).body.results[0]).toMatchObject({ media_id: 'cup-final', episode_id: 1 });
    calls.length = 0;
    // ("golden hour" would find "hours" by its word part.)
    const r = await s.call('POST', '/search', { form: { collection: 'words-only', query: 'dusk' } });
    expect(r.body.results).toEqual([]);
    expect(calls).toEqual([]);
  });
});
