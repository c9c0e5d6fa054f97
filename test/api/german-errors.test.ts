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

  it('says in German what used to be English only: keys, worker endpoints, multipart, links, hosts', async () => {
    const keys = (await s.call('GET', '/keys')).body.keys as { id: string; role: string }[];
    const admin = keys.find((k) => k.role === 'admin')!;
    const last = await s.call('DELETE', `/keys/${admin.id}`, { headers: de });
    expect(last.status).toBe(409);
    expect(last.body.detail).toBe('Der letzte Admin-Schlüssel lässt sich nicht widerrufen: lege zuerst einen weiteren an');
    const worker = await s.call('POST', '/worker/heartbeat', { json: {}, headers: de });
    expect(worker.status).toBe(403);
    expect(worker.body.detail).toBe('Die Job-Endpunkte unter /worker brauchen einen Worker-Schlüssel');
    const fields = await s.call('POST', '/keys', { json: { name: 'w', role: 'user', worker_id: 'desk' }, headers: de });
    expect(fields.status).toBe(422);
    expect(fields.body).toMatchObject({ detail: 'worker_id und max_concurrency gibt es nur für Worker-Schlüssel', errors: [{ field: 'role', message: 'muss worker sein' }] });
    const link = await s.call('GET', '/files/%E0%A4%A?exp=1&sig=x', { headers: de });
    expect(link.status).toBe(400);
    expect(link.body.detail).toBe('Der Datei-Link ist fehlerhaft (falsche Prozentkodierung)');
    const host = await s.call('GET', '/collections', { headers: { ...de, host: 'rebind.example' } });
    expect(host.status).toBe(403);
    expect(host.body.detail).toMatch(/^Auf den Host „rebind\.example“ antwortet dieser Server nicht/);
    // English stays as it was, made from the same key.
    expect((await s.call('DELETE', `/keys/${admin.id}`)).body.detail).toBe('cannot revoke the last admin key: create another admin key first');
  });
});
