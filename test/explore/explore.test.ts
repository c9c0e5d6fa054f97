import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureCorpus, type CorpusManifest } from '../support/corpus.js';
import { startTestServer, waitFor, type TestServer } from '../support/server.js';

const RS = '\x1e';

describe('POST /search_clusters and /collection_suggestions over the test corpus', () => {
  let s: TestServer;
  let corpus: CorpusManifest;
  let user: string;

  async function index(collection: string, video: Record<string, unknown>, key = s.adminKey) {
    const r = await s.call('POST', '/index', { key, form: { collection, video } });
    expect(r.status).toBe(202);
    const t = await waitFor(async () => {
      const x = (await s.call('GET', `/tasks/${r.body.task_id}`, { key })).body;
      return x.status === 'completed' || x.status === 'failed' ? x : undefined;
    }, 90_000);
    expect(t.status, t.error?.message).toBe('completed');
  }

  async function streamed(path: string, body: unknown, opts: { key?: string; accept?: string } = {}) {
    const res = await fetch(`${s.url}${path}`, {
      method: 'POST',
      headers: { 'x-api-key': opts.key ?? user, ...(opts.accept ? { accept: opts.accept } : {}) },
      body: new URLSearchParams({ body: JSON.stringify(body) }),
    });
    return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
  }
  const seq = (text: string) => {
    expect(text === '' || text.startsWith(RS)).toBe(true);
    return text.split(RS).filter(Boolean).map((chunk) => {
      expect(chunk.endsWith('\n')).toBe(true);
      return JSON.parse(chunk);
    });
  };

  beforeAll(async () => {
    corpus = await ensureCorpus();
    s = await startTestServer({ env: { VIDX_MEDIA_ROOTS: dirname(corpus.slides.path) } });
    user = await s.newKey();
    await s.call('POST', '/collections', { key: user, json: { collection_id: 'mine', name: 'Mine' } });
    await s.call('POST', '/collections', { key: user, json: { collection_id: 'empty', name: 'Nothing yet' } });
    await s.call('POST', '/collections', { json: { collection_id: 'pub', name: 'Public', is_public: true } });
    await s.call('POST', '/collections', { json: { collection_id: 'admins', name: 'Private to admin' } });
    await index('mine', { path: corpus.slides.path, media_id: 'slides-a' }, user);
    await index('mine', { path: corpus.slides.path, media_id: 'slides-b', title: 'Second copy' }, user);
    await index('mine', { path: corpus.german.path, media_id: 'german' }, user);
    await index('pub', { path: corpus.slides.path, media_id: 'public-slides' });
    await index('admins', { path: corpus.slides.path, media_id: 'admin-slides' });
  });
  afterAll(() => s.close());

  it('streams one RFC 7464 element per cluster, grouping the same moment of both copies', async () => {
    const r = await streamed('/search_clusters', { query: 'penalty shot apple cake', collection: 'mine' });
    expect(r.status).toBe(200);
    expect(r.type).toBe('application/json-seq');
    const els = seq(r.text);
    expect(els.length).toBeGreaterThanOrEqual(2);
    els.forEach((el, i) => {
      expect(el).toEqual({ answer: expect.any(String), teaser_id: i, cluster_results: expect.any(Array), additional_info: expect.any(String), related_queries: expect.any(Array) });
      expect(el.answer.length).toBeGreaterThan(10);
      expect(el.related_queries.length).toBeGreaterThanOrEqual(2);
      expect(el.related_queries.length).toBeLessThanOrEqual(5);
      for (const hit of el.cluster_results) {
        // `copies` only where copies of the hit's item matched too (search shows a shared moment once).
        expect(Object.keys(hit).filter((k) => k !== 'copies').sort()).toEqual(['audio', 'captured_at', 'captured_at_source', 'computer_vision', 'content', 'episode_id', 'image_url', 'media_id', 'media_type', 'place', 'score', 'src', 'start_time', 'title']);
      }
    });
    const penalty = els.find((el) => el.cluster_results.some((h: { episode_id: number }) => h.episode_id === 1));
    const cake = els.find((el) => el.cluster_results.some((h: { episode_id: number }) => h.episode_id === 0));
    expect(penalty).toBeDefined();
    expect(cake).toBeDefined();
    expect(penalty).not.toBe(cake);
    // Both copies' moment is there: one hit, the other copy named in its `copies`.
    const hits = penalty.cluster_results as { media_id: string; copies?: { media_id: string }[] }[];
    expect(new Set(hits.flatMap((h) => [h.media_id, ...(h.copies ?? []).map((c) => c.media_id)]))).toEqual(new Set(['slides-a', 'slides-b']));
    expect(penalty.cluster_results.every((h: { episode_id: number }) => h.episode_id === 1)).toBe(true);
    // The same file indexed twice is one video and its copy: one moment, the copy said at the end.
    expect(penalty.additional_info).toMatch(/^1 moment in 1 video: [^,]+ 0:0\d \(also in 1 copy\)$/);
    expect(penalty.answer.toLowerCase()).toMatch(/penalty|goalkeeper/);
  });

  it('answers NDJSON when Accept asks for it, and in German when search_language is de', async () => {
    const r = await streamed('/search_clusters', { query: 'penalty', collection: 'mine', search_language: 'de' }, { accept: 'application/x-ndjson' });
    expect(r.type).toBe('application/x-ndjson');
    expect(r.text).not.toContain(RS);
    const els = r.text.trim().split('\n').map((l) => JSON.parse(l));
    expect(els[0].additional_info).toMatch(/Momente? in \d+ Videos?/);
  });

  it('streams an empty answer (200) for a collection with nothing indexed or no match', async () => {
    const empty = await streamed('/search_clusters', { query: 'penalty', collection: 'empty' });
    expect(empty.status).toBe(200);
    expect(empty.text).toBe('');
    expect((await streamed('/collection_suggestions', { collection: 'empty' })).text).toBe('');
    expect((await streamed('/search_clusters', { query: 'xylophone', collection: 'mine' })).text).toBe('');
  });

  it('suggests topics and questions that name what the collection is about', async () => {
    const r = await streamed('/collection_suggestions', { collection: 'mine' });
    expect(r.status).toBe(200);
    const els = seq(r.text);
    expect(els.length).toBeGreaterThanOrEqual(4);
    for (const el of els) {
      expect(el.completion).toEqual({ type: expect.stringMatching(/^(topic|question)$/), text: expect.any(String), media_ids: expect.any(Array), moments: expect.any(Array) });
    }
    const topics = els.filter((e) => e.completion.type === 'topic').map((e) => e.completion.text.toLowerCase()).join(' | ');
    const hits = ['penalty', 'goalkeeper', 'apple', 'cake', 'apfelkuchen', 'lake', 'sun', 'berlin', 'regen', 'morgen'].filter((w) => topics.includes(w));
    expect(hits.length, topics).toBeGreaterThanOrEqual(3);
    const questions = els.filter((e) => e.completion.type === 'question');
    expect(questions[0].completion.text).toMatch(/\?$/);
    const de = seq((await streamed('/collection_suggestions', { collection: 'mine', search_language: 'de' })).text);
    expect(de.find((e) => e.completion.type === 'question').completion.text).toMatch(/^(Was|Wann|Wo) .*\?$/);
  });

  it('defers to a task whose result is the list the stream would have sent', async () => {
    const direct = seq((await streamed('/search_clusters', { query: 'penalty shot apple cake', collection: 'mine' })).text);
    const r = await s.call('POST', '/search_clusters?defer=true', { key: user, form: { query: 'penalty shot apple cake', collection: 'mine' } });
    expect(r.status).toBe(202);
    const t = await waitFor(async () => {
      const x = (await s.call('GET', `/tasks/${r.body.task_id}`, { key: user })).body;
      return x.status === 'completed' || x.status === 'failed' ? x : undefined;
    });
    expect(t.status, t.error?.message).toBe('completed');
    expect(t.endpoint).toBe('/search_clusters');
    expect(t.result.map((e: { answer: string }) => e.answer)).toEqual(direct.map((e) => e.answer));
    const sug = await s.call('POST', '/collection_suggestions?defer=1', { key: user, form: { collection: 'mine' } });
    expect(sug.status).toBe(202);
    const st = await waitFor(async () => {
      const x = (await s.call('GET', `/tasks/${sug.body.task_id}`, { key: user })).body;
      return x.status === 'completed' ? x : undefined;
    });
    expect(st.result.length).toBeGreaterThanOrEqual(4);
  });

  it('follows the public-collection rules', async () => {
    expect((await streamed('/search_clusters', { query: 'penalty', collection: 'pub', search_public_collections: true })).status).toBe(200);
    expect(seq((await streamed('/search_clusters', { query: 'penalty', collection: 'pub', search_public_collections: true })).text).length).toBeGreaterThan(0);
    expect((await streamed('/search_clusters', { query: 'penalty', collection: 'pub' })).status).toBe(404);
    expect((await streamed('/collection_suggestions', { collection: 'pub', search_public_collections: true })).status).toBe(200);
    for (const flag of [true, false]) {
      const r = await streamed('/search_clusters', { query: 'penalty', collection: 'admins', search_public_collections: flag });
      expect(r.status).toBe(404);
      expect(JSON.parse(r.text).code).toBe('not_found');
      expect((await streamed('/collection_suggestions', { collection: 'admins', search_public_collections: flag })).status).toBe(404);
    }
    const deferred = await s.call('POST', '/search_clusters?defer=true', { key: user, form: { query: 'x', collection: 'admins' } });
    expect(deferred.status).toBe(404);
  });
});
