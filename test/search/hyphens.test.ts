/**
 * Hyphenated words (issue 42): "Wi-Fi" is found as `wifi`, `wi-fi` and `wi fi`, and "wifi" as `wi-fi`; a
 * line holding the hyphenated word and the other query words ranks as a line holding them all.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../support/app.js';
import type { TestServer } from '../support/server.js';
import { buildAnalysis, fixtureItem } from './fixtures.js';

type Line = [number, number, string];
const episodesOf = (lines: string[]) => lines.map((text, i) => ({ start: i * 8, end: (i + 1) * 8, summary: '', audio: [[i * 8 + 1, i * 8 + 6, text]] as Line[] }));

describe('hyphenated words', () => {
  let s: TestServer;
  const search = async (query: string) => {
    const r = await s.call('POST', '/search', { json: { collection: 'home', query } });
    expect(r.status, query).toBe(200);
    return r.body as { results: { media_id: string; content: string }[]; corrected: { from: string; to: string }[] };
  };

  beforeAll(async () => {
    s = await startTestApp();
    expect((await s.call('POST', '/collections', { json: { collection_id: 'home', name: 'Home' } })).status).toBe(201);
    const pk = s.vidx.store.collections.findById('home')!.pk;
    const store = (mediaId: string, language: 'en' | 'de', lines: string[]) =>
      s.vidx.searchIndex.storeItem(pk, fixtureItem(s.vidx, s.dataDir, 'home', mediaId, { title: null }), buildAnalysis({ language, summary: '', episodes: episodesOf(lines) }), { replace: false });
    // The password manager comes first in the collection and says "password" twice: by words alone it would lead.
    store('manager', 'en', ['The password manager keeps every password safe.', 'Open the app.']);
    store('router', 'en', ['Welcome home.', 'The Wi-Fi password is on the sticker under the router.']);
    store('cafe', 'en', ['The cafe has free wifi for guests.']);
    store('mail', 'en', ['I sent you an e-mail yesterday.']);
    store('brief', 'de', ['Die E-Mail-Adresse steht auf der Karte.']);
  });
  afterAll(() => s.close());

  it('ranks the line with the hyphenated word and the other words first: wifi password', async () => {
    const { results, corrected } = await search('wifi password');
    expect(corrected).toEqual([]);
    expect(results[0]).toMatchObject({ media_id: 'router', content: 'The Wi-Fi password is on the sticker under the router.' });
    expect(results.findIndex((r) => r.media_id === 'manager')).toBeGreaterThan(0);
    expect((await search('wi-fi password')).results[0]).toMatchObject({ media_id: 'router' });
  });

  it('finds the joined and the hyphenated form both ways round', async () => {
    for (const query of ['wi-fi', 'wifi', 'Wi-Fi']) {
      const { results, corrected } = await search(query);
      expect(corrected, query).toEqual([]);
      expect(results.map((r) => r.media_id).sort(), query).toEqual(['cafe', 'router']);
    }
    for (const query of ['email', 'e-mail']) {
      const { results, corrected } = await search(query);
      expect(corrected, query).toEqual([]);
      expect(results.map((r) => r.media_id).sort(), query).toEqual(['brief', 'mail']);
    }
    // A part of a longer hyphenated word, and the whole written as one.
    expect((await search('Adresse')).results.map((r) => r.media_id)).toEqual(['brief']);
    expect((await search('emailadresse')).results.map((r) => r.media_id)).toEqual(['brief']);
  });
});
