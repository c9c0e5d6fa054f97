import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORD_RANKING } from '../../src/services/search/ranking-knobs.js';
import { startTestApp } from '../support/app.js';
import type { TestServer } from '../support/server.js';
import { buildAnalysis } from './fixtures.js';

/**
 * bm25 ranks at most the newest WORD_RANKING.newest matches of a word per pass. A word in more episodes than
 * that must still answer with full pages of moments that say it; an old episode that has the word only in
 * its item's title comes after every moment that says it (issue 30).
 */
describe('rank bound for common words', () => {
  let s: TestServer;
  const PER_ITEM = 50;
  const ITEMS = Math.ceil((WORD_RANKING.newest + 300) / PER_ITEM);

  beforeAll(async () => {
    s = await startTestApp({ queryEmbedder: null });
    expect((await s.call('POST', '/collections', { json: { collection_id: 'big', name: 'big' } })).status).toBe(201);
    const pk = s.vidx.store.collections.findById('big')!.pk;
    const item = (mediaId: string, title: string) => ({
      media_id: mediaId, type: 'video' as const, title, src: null, thumbnail: null, duration: PER_ITEM * 10, additional_metadata: null,
    });
    // The oldest item: "weather" only in its title.
    s.vidx.searchIndex.storeItem(pk, item('oldest', 'Weather report'), buildAnalysis({
      language: 'en', summary: 'A report.', episodes: [{ start: 0, end: 10, summary: 'A studio.', audio: [[0, 10, 'Good evening from the studio.']] }],
    }), { replace: false });
    for (let i = 0; i < ITEMS; i++) {
      const episodes = Array.from({ length: PER_ITEM }, (_, e) => ({
        start: e * 10, end: e * 10 + 10, summary: 'People talk.', audio: [[e * 10, e * 10 + 10, `They talk about the weather number ${i * PER_ITEM + e}.`]] as [number, number, string][],
      }));
      s.vidx.searchIndex.storeItem(pk, item(`talk-${i}`, 'Talk'), buildAnalysis({ language: 'en', summary: 'Talk.', episodes }), { replace: false });
    }
  }, 120_000);
  afterAll(() => s.close());

  it('answers a word in more than WORD_RANKING.newest episodes with a full page of moments that say it', async () => {
    const r = await s.call('POST', '/search', { form: { collection: 'big', query: 'weather', limit: 20 } });
    expect(r.status).toBe(200);
    expect(r.body.results).toHaveLength(20);
    expect(r.body.results.every((x: { content: string }) => /weather number \d+/.test(x.content))).toBe(true);
    // Only its title names the weather: it is still found when asked within its item.
    const own = await s.call('POST', '/search', { form: { collection: 'big', query: 'weather', media_id: 'oldest' } });
    expect(own.body.results.map((x: { media_id: string }) => x.media_id)).toEqual(['oldest']);
    expect(new Set(r.body.results.map((x: { media_id: string; episode_id: number }) => `${x.media_id}#${x.episode_id}`)).size).toBe(20);
  });
});
