import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../support/app.js';
import type { TestServer } from '../support/server.js';
import { buildAnalysis, fixtureItem } from './fixtures.js';

describe('one search result per moment', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestApp({ queryEmbedder: null });
    expect((await s.call('POST', '/collections', { json: { collection_id: 'wetter', name: 'Wetter' } })).status).toBe(201);
    const pk = s.vidx.store.collections.findById('wetter')!.pk;
    // A sentence spoken across a boundary belongs to both episodes: both match, a moment apart.
    const analysis = buildAnalysis({
      language: 'de',
      summary: 'Wetterbericht.',
      episodes: [
        { start: 0, end: 7.25, summary: 'Guten Morgen aus Berlin.', audio: [[1, 4, 'Guten Morgen aus Berlin.'], [6.8, 8.4, 'Heute scheint die Sonne.']] },
        { start: 7.25, end: 16, summary: 'Am Abend Regen.', audio: [[6.8, 8.4, 'Heute scheint die Sonne.'], [10, 12, 'Am Abend gibt es leichten Regen.']] },
        { start: 16, end: 24, summary: 'Morgen wieder Sonne.', audio: [[17, 19, 'Morgen scheint wieder die Sonne.']] },
      ],
    });
    s.vidx.searchIndex.storeItem(pk, fixtureItem(s.vidx, s.dataDir, 'wetter', 'bericht'), analysis, { replace: false });
  });
  afterAll(() => s.close());

  it('merges hits of the same media that start within two seconds, keeping other moments', async () => {
    const r = await s.call('POST', '/search', { form: { collection: 'wetter', query: 'Sonne' } });
    expect(r.status).toBe(200);
    const times = r.body.results.map((x: { start_time: number }) => x.start_time).sort((a: number, b: number) => a - b);
    expect(times).toHaveLength(2);
    expect(times[0]).toBeGreaterThanOrEqual(6.8);
    expect(times[0]).toBeLessThanOrEqual(7.25);
    expect(times[1]).toBe(17);
  });
});
