import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTwoShotVideo } from '../support/folder-media.js';
import { startTestApp } from '../support/app.js';
import { settledTask, type TestServer } from '../support/server.js';

/**
 * Issue 22.5: a clip whose one slide runs through two shots (two episodes) gave two results with the same
 * text (0:00 and 0:05). A response never holds two results of one media with the same `content`.
 */
describe('one result per moment: never the same text twice for one media', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestApp({ queryEmbedder: null });
    await s.call('POST', '/collections', { json: { collection_id: 'clips', name: 'Clips' } });
    for (const [name, text, language] of [['cake', 'Birthday cake with candles', 'en'], ['torte', 'Geburtstagstorte mit Kerzen', 'de']] as const) {
      await makeTwoShotVideo(join(s.mediaDir, `${name}.mp4`), text, 10);
      const r = await s.call('POST', '/index', { form: { video: { path: join(s.mediaDir, `${name}.mp4`), media_id: name }, collection: 'clips', index_language: language } });
      const t = await settledTask(s, r.body.task_id);
      expect(t.status, t.error?.message).toBe('completed');
    }
  }, 120_000);
  afterAll(() => s.close());

  it('answers one result for a slide seen in two episodes, in English and German', async () => {
    for (const [media, query] of [['cake', 'birthday cake'], ['torte', 'Geburtstagstorte']]) {
      const episodes = (await s.call('GET', `/collections/clips/items/${media}/analysis`)).body.episodes;
      expect(episodes.length, media).toBeGreaterThanOrEqual(2);
      const results = (await s.call('POST', '/search', { form: { collection: 'clips', query } })).body.results as { media_id: string; content: string; start_time: number }[];
      const mine = results.filter((r) => r.media_id === media);
      expect(mine, JSON.stringify(results)).toHaveLength(1);
      expect(mine[0].start_time).toBe(0);
    }
  });
});
