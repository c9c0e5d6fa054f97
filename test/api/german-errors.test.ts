import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prefersGerman } from '../../src/http/german.js';
import { startTestApp } from '../support/app.js';
import type { TestServer } from '../support/server.js';

/** Issue 23.6: server errors in German where the request asks for German (Accept-Language), English otherwise. */
describe('errors in the language the request asks for', () => {
  let s: TestServer;
  let user: string;
  const de = { 'accept-language': 'de-DE,de;q=0.9,en;q=0.5' };
  beforeAll(async () => {
    // No socket: what is tested here lives in the app (routes, middleware, errors), not in the transport.
    s = await startTestApp();
    user = await s.newKey();
    await s.call('POST', '/collections', { json: { collection_id: 'urlaub', name: 'Urlaub' } });
  });
  afterAll(() => s.close());

  it('reads Accept-Language with its weights', () => {
    expect(prefersGerman('de-AT')).toBe(true);
    expect(prefersGerman('en-GB,de;q=0.5')).toBe(false);
    expect(prefersGerman('fr, de;q=0.8, en;q=0.7')).toBe(true);
    expect(prefersGerman(undefined)).toBe(false);
  });

  it('says not found, conflicts, refused keys and paths in German, naming what it names in English', async () => {
    const missing = await s.call('GET', '/collections/nirgends', { headers: de });
    expect(missing.status).toBe(404);
    expect(missing.body.detail).toBe('Sammlung „nirgends“ nicht gefunden');
    expect((await s.call('GET', '/collections/nirgends')).body.detail).toBe('collection "nirgends" not found');
    expect((await s.call('POST', '/collections', { json: { collection_id: 'urlaub', name: 'x' }, headers: de })).body.detail).toBe('Die Sammlung „urlaub“ gibt es schon');
    expect((await s.call('GET', '/collections', { key: 'wrong', headers: de })).body.detail).toBe('Diesen API-Schlüssel kennt der Server nicht');
    const admin = await s.call('POST', '/collections/urlaub/folders', { json: { path: '/etc' }, headers: de });
    expect(admin.status).toBe(422);
    expect(admin.body.detail).toBe(`Pfad: Der Ordner „/etc“ liegt außerhalb der Medienordner (VIDX_MEDIA_ROOTS); erlaubt sind: ${s.mediaDir}`);
    // A user learns that the path is outside, not where the roots are.
    await s.call('POST', '/collections', { key: user, json: { collection_id: 'meins', name: 'Meins' } });
    const theirs = await s.call('POST', '/collections/meins/folders', { key: user, json: { path: '/etc' } });
    expect(theirs.body.detail).toBe('path: the folder "/etc" is outside the configured media roots (VIDX_MEDIA_ROOTS)');
  });

  it('words validation errors in German, field by field', async () => {
    const r = await s.call('POST', '/collections', { json: { collection_id: 'bad id', name: '', farbe: 'rot' }, headers: de });
    expect(r.status).toBe(422);
    const byField = Object.fromEntries((r.body.errors as { field: string; message: string }[]).map((e) => [e.field, e.message]));
    expect(byField.collection_id).toBe('muss ^[A-Za-z0-9_-]+$ entsprechen');
    expect(byField.name).toMatch(/^Zu klein/);
    expect(byField.farbe).toBe('unbekanntes Feld');
    expect(r.body.detail).toContain('farbe: unbekanntes Feld');
  });
});
