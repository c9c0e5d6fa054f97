import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueryEmbedder } from '../../src/services/search/index.js';
import { startTestApp } from '../support/app.js';
import type { TestServer } from '../support/server.js';
import { buildAnalysis, fixtureItem, topicVector } from './fixtures.js';

type Line = [number, number, string];
interface Hit { media_id: string; episode_id: number; start_time: number; content: string; score: number }

/** One episode per line, `seconds` long: the way subtitles cut a vlog into moments. */
const episodesOf = (lines: string[], seconds = 8, topic?: 'baking' | 'nature') =>
  lines.map((text, i) => ({ start: i * seconds, end: (i + 1) * seconds, summary: text, audio: [[i * seconds + 1, i * seconds + 6, text]] as Line[], ...(topic ? { topic } : {}) }));

const VLOG = [
  'Hello and welcome back to my kitchen.',
  'After forty minutes, the kitchen smells wonderful.',
  'First we wash the fruit and dry it.',
  'The butter has to be soft.',
  'Now the sugar goes in.',
  'Mix it for three minutes.',
  'Today we bake my grandmother\'s famous apple cake.',
  'Slice the fruit thinly.',
  'The oven is at one hundred eighty degrees.',
  'Careful, the tin is hot.',
  'Let it cool a little.',
  'A cup of coffee goes with it.',
  'The cake is ready.',
  'Next week: a tart recipe.',
];

/** The words the test embedder understands: baking words point at the baking axis, others at nature. */
const embedder: QueryEmbedder = {
  async embed(query) {
    return { vector: topicVector(/cake|bake|oven/i.test(query) ? 'baking' : 'nature'), minSimilarity: 0.5 };
  },
};

describe('ranking by what a moment says (issue 30)', () => {
  let s: TestServer;
  const search = async (query: string, extra: Record<string, unknown> = {}) => {
    const r = await s.call('POST', '/search', { form: { collection: 'home', query, ...extra } });
    expect(r.status, query).toBe(200);
    return r.body as { results: Hit[]; corrected: { from: string; to: string }[] };
  };

  beforeAll(async () => {
    s = await startTestApp({ queryEmbedder: embedder });
    expect((await s.call('POST', '/collections', { json: { collection_id: 'home', name: 'Home' } })).status).toBe(201);
    const pk = s.vidx.store.collections.findById('home')!.pk;
    const store = (mediaId: string, title: string, language: 'en' | 'de', episodes: ReturnType<typeof episodesOf>, vectors = false) =>
      s.vidx.searchIndex.storeItem(pk, fixtureItem(s.vidx, s.dataDir, 'home', mediaId, { title }), buildAnalysis({ language, summary: title, episodes, vectors }), { replace: false });
    // Every moment of the vlog is near "apple cake" by meaning (one topic), and its title names them all.
    store('vlog', 'Apple cake vlog', 'en', episodesOf(VLOG, 8, 'baking'), true);
    store('bread', 'Bread baking with Grandpa', 'en', episodesOf(['Good morning everybody.', 'today grandpa shows me how he bakes his sourdough bread', 'The dough rests overnight.', 'We need flour, water and salt.']));
    store('wetter', 'Wanderwoche', 'de', episodesOf(['Wir starten früh am Morgen.', 'Nach einer Stunde beginnt es plötzlich zu regnen.', 'Die Wanderung endet an der Hütte.', 'Im Sommer machen wir längere Wanderungen.']));
    store('workshop', 'Workshop', 'en', episodesOf(['Take the sandpaper and smooth the edges.', 'Then paint the board.', 'Let it dry overnight.']));
    store('lecture', 'Lecture', 'en', episodesOf(Array.from({ length: 120 }, (_, i) => `In part ${i + 1} we talk about topic number ${(i * 7) % 13}.`), 30));
  });
  afterAll(() => s.close());

  it('puts the line that says the words first, not every moment the title names', async () => {
    const { results } = await search('apple cake');
    expect(results[0]).toMatchObject({ media_id: 'vlog', episode_id: 6 });
    expect(results[0].content).toContain('apple cake');
    // Moments that say only "cake" follow; those only the title (or a vector) finds are few.
    expect(results.findIndex((r) => r.content === 'The cake is ready.')).toBe(1);
    const scores = results.map((r) => r.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  it('finds a stem in another form: bakes for baking, regnen for regnet, Wanderung for Wanderungen', async () => {
    expect((await search('bread baking')).results[0]).toMatchObject({ media_id: 'bread', episode_id: 1 });
    expect((await search('regnet')).results[0]).toMatchObject({ media_id: 'wetter', episode_id: 1 });
    const wandern = (await search('Wanderungen')).results.filter((r) => r.media_id === 'wetter').map((r) => r.episode_id);
    expect(wandern.slice(0, 2).sort()).toEqual([2, 3]);
  });

  it('ranks the line holding every word above lines holding some: part 77', async () => {
    const { results } = await search('part 77');
    expect(results[0]).toMatchObject({ media_id: 'lecture', episode_id: 76 });
    expect(results[0].content).toContain('part 77 ');
  });

  it('corrects a word the collection does not hold, and says so', async () => {
    const typo = await search('sandpapper');
    expect(typo.corrected).toEqual([{ from: 'sandpapper', to: 'sandpaper' }]);
    expect(typo.results[0]).toMatchObject({ media_id: 'workshop', episode_id: 0 });
    // Words the collection holds are never corrected; nor are short words.
    expect((await search('sandpaper')).corrected).toEqual([]);
    expect((await search('paint board')).corrected).toEqual([]);
    expect((await search('cak')).corrected).toEqual([]);
  });

  it('reports the same start time for a line whatever the query', async () => {
    const a = (await search('grandmother')).results[0];
    const b = (await search('famous apple cake')).results[0];
    expect(a.start_time).toBe(b.start_time);
    expect(a.start_time).toBe(6 * 8 + 1);
  });

  it('never lets a vector neighbour outrank a moment that says the words', async () => {
    const { results } = await search('oven');
    expect(results[0]).toMatchObject({ media_id: 'vlog', episode_id: 8 });
    expect(results.length).toBeGreaterThan(1);
  });

  it('answers odd queries with 200 or a 422 naming the query, never a 5xx', async () => {
    const odd = ['!!! ??? ...', 'the and of', 'x'.repeat(10_000), '🍎🎂', 'שלום עולם', '\ud800 cake', 'der die das und'];
    for (const query of odd) {
      const r = await s.call('POST', '/search', { form: { collection: 'home', query } });
      expect([200, 422], query.slice(0, 20)).toContain(r.status);
      if (r.status === 422) expect(JSON.stringify(r.body)).toContain('query');
    }
    // Nothing to look for: no results, and nothing corrected.
    for (const query of ['!!! ??? ...', 'the and of', 'der die das und', '🍎🎂']) expect((await search(query)).results, query).toEqual([]);
  });
});
