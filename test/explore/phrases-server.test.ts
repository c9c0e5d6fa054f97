import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClusterElement, SuggestionElement } from '../../src/services/explore/index.js';
import { readsWhole } from '../../src/services/explore/reads-whole.js';
import { buildAnalysis, fixtureItem } from '../search/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { ENGLISH, GERMAN, type Episode } from './transcripts.js';

/** POST /collection_suggestions and /search_clusters over realistic transcripts: every phrase they show reads whole. */
describe('phrases shown by the explore endpoints read whole', () => {
  let s: TestServer;

  /** Stores each theme of the transcripts as one video, its episodes spoken line by line, as indexing would. */
  function seed(collection: string, rows: Episode[], language: 'en' | 'de') {
    const pk = s.vidx.store.collections.findById(collection)!.pk;
    const shown = (screen: string) => (language === 'en' ? `On screen: “${screen}”.` : `Text im Bild: „${screen}“.`);
    for (const media of new Set(rows.map((r) => r.media_id))) {
      const episodes = rows
        .filter((r) => r.media_id === media)
        .map((r) => ({
          start: r.start, end: r.end, summary: r.text, audio: [[r.start, r.end, r.text]] as [number, number, string][],
          // The caption stays on screen for the whole episode: two visual entries, as the pipeline samples it.
          visual: [0, 1].map((k) => ({ start: r.start + k * 5, end: r.start + k * 5 + 5, summary: shown(r.screen), ocr: [r.screen] })),
        }));
      s.vidx.searchIndex.storeItem(pk, fixtureItem(s.vidx, s.dataDir, collection, media), buildAnalysis({ language, summary: episodes[0].summary, episodes }), { replace: false });
    }
  }

  /** The elements of a streamed answer (NDJSON; one element parses as a JSON body on its own). */
  async function streamed<T>(path: string, body: unknown): Promise<T[]> {
    const r = await s.call('POST', path, { form: body, headers: { accept: 'application/x-ndjson' } });
    expect(r.status).toBe(200);
    const text = typeof r.body === 'string' ? r.body : `${JSON.stringify(r.body)}\n`;
    return text.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as T);
  }

  /**
   * A short moment under a caption of its own: its cluster is labelled by the caption, which the spoken line
   * does not name. (A caption another episode shows too lets the two share a cluster, labelled by either.)
   */
  const intro = (media: string, screen: string, text: string): Episode => ({ media_id: media, idx: 0, start: 0, end: 10, screen, text });

  beforeAll(async () => {
    s = await startTestServer({ queryEmbedder: null });
    for (const id of ['talk-en', 'talk-de']) expect((await s.call('POST', '/collections', { json: { collection_id: id, name: id } })).status).toBe(201);
    seed('talk-en', [...ENGLISH, intro('cooking-intro', 'Family Kitchen Show', 'Our apple cake, look!')], 'en');
    seed('talk-de', [...GERMAN, intro('backen-intro', 'Sonntagsküche', 'Unser Apfelkuchen, schaut mal!')], 'de');
  });
  afterAll(() => s?.close());

  const cases = [
    { language: 'en' as const, collection: 'talk-en', queries: ['apple cake', 'penalty', 'tomato', 'birthday candles'], topics: ['apple cake', 'tomato plants', 'penalty shot'] },
    { language: 'de' as const, collection: 'talk-de', queries: ['Apfelkuchen', 'Elfmeter', 'Tomatenpflanzen', 'Kerzen'], topics: ['apfelkuchen', 'tomatenpflanzen', 'elfmeter'] },
  ];

  it.each(cases)('suggests topics that read whole ($language)', async ({ language, collection, topics }) => {
    const els = await streamed<SuggestionElement>('/collection_suggestions', { collection, search_language: language });
    const shown = els.filter((e) => e.completion.type === 'topic').map((e) => e.completion.text);
    expect(shown.length).toBeGreaterThanOrEqual(4);
    for (const t of shown) expect(readsWhole(t, language), t).toBe(true);
    const all = shown.join(' | ').toLowerCase();
    expect(topics.filter((t) => all.includes(t)).length, all).toBeGreaterThanOrEqual(1);
  });

  it.each(cases)('labels clusters and relates queries with phrases that read whole ($language)', async ({ language, collection, queries }) => {
    let labels = 0;
    for (const query of queries) {
      const els = await streamed<ClusterElement>('/search_clusters', { query, collection, search_language: language });
      expect(els.length, query).toBeGreaterThan(0);
      for (const el of els) {
        for (const q of el.related_queries) expect(readsWhole(q, language), `${query} → ${q}`).toBe(true);
        // The answer is "Label: best line", or the line alone when the label would repeat it.
        const cut = el.answer.indexOf(': ');
        if (cut > 0 && el.cluster_results[0].content.startsWith(el.answer.slice(cut + 2, cut + 22))) {
          labels++;
          expect(readsWhole(el.answer.slice(0, cut), language), el.answer).toBe(true);
        }
      }
    }
    expect(labels).toBeGreaterThan(0);
  });
});
