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

describe('migration 037: text indexed before hyphenated words were also indexed as one', () => {
  let s: TestServer | undefined;
  afterAll(() => s?.close());

  it('rebuilds the text at start, so wifi finds Wi-Fi in items stored before', async () => {
    s = await startTestApp();
    expect((await s.call('POST', '/collections', { json: { collection_id: 'old', name: 'Old' } })).status).toBe(201);
    const pk = s.vidx.store.collections.findById('old')!.pk;
    const stored = s.vidx.searchIndex.storeItem(pk, fixtureItem(s.vidx, s.dataDir, 'old', 'router', { title: null }), buildAnalysis({ language: 'en', summary: '', episodes: episodesOf(['The Wi-Fi password is on the sticker.']) }), { replace: false });
    // The episode's text as vidx wrote it before: its words and parts only, no "wifi".
    const db = s.vidx.store.db;
    const episodePk = db.prepare('SELECT pk FROM episodes WHERE item_pk = ?').pluck().get(stored.item.pk) as number;
    const empty = { title: '', transcript: '', screen_text: '', tags: '', summary: '', metadata: '' };
    s.vidx.store.text.deleteRows(pk, [episodePk]);
    s.vidx.store.text.insertText(pk, episodePk, { ...empty, transcript: 'the wi fi password is on the sticker' }, { ...empty, transcript: 'the password sticker' });
    db.prepare('DELETE FROM schema_migrations WHERE id = 37').run();
    expect((await s.call('POST', '/search', { json: { collection: 'old', query: 'wifi', correct_typos: false } })).body.results).toEqual([]);
    const dataDir = s.dataDir;
    await s.close({ keepData: true });
    s = await startTestApp({ dataDir });
    const found = (await s.call('POST', '/search', { json: { collection: 'old', query: 'wifi' } })).body;
    expect(found).toMatchObject({ corrected: [], results: [{ media_id: 'router', content: 'The Wi-Fi password is on the sticker.' }] });
  });
});
