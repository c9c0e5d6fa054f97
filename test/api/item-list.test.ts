import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedItems } from '../support/seed.js';
import { startTestApp } from '../support/app.js';
import type { TestServer } from '../support/server.js';

/** Issue 23.9: the grid's tools on the server: sort by name, capture date, duration or date added; a type filter; a count. */
describe('item list: sort, type filter and total', () => {
  let s: TestServer;
  beforeAll(async () => {
    // No socket: what is tested here lives in the app (routes, middleware, errors), not in the transport.
    s = await startTestApp();
    await s.call('POST', '/collections', { json: { collection_id: 'mix', name: 'Mix' } });
    seedItems(s.vidx, s.dataDir, 'mix', 12);
    const pk = s.vidx.store.collections.findById('mix')!.pk;
    // Some audio, and capture dates on a few items.
    s.vidx.store.db.prepare("UPDATE items SET type = 'audio' WHERE collection_pk = ? AND media_id IN ('clip-003', 'clip-007')").run(pk);
    s.vidx.store.db.prepare("UPDATE items SET captured_at = '2020-01-0' || substr(media_id, -1) || 'T00:00:00.000Z', captured_at_source = 'metadata' WHERE collection_pk = ? AND media_id IN ('clip-001', 'clip-005', 'clip-009')").run(pk);
  });
  afterAll(() => s.close());

  const list = async (q: string) => (await s.call('GET', `/collections/mix/items?${q}`)).body as { items: { media_id: string; title: string }[]; offset: string | null; total: number };

  it('counts, filters by type and sorts; pages by position in the other orders', async () => {
    expect((await list('limit=5')).total).toBe(12);
    const audio = await list('type=audio');
    expect(audio.total).toBe(2);
    expect(audio.items.map((i) => i.media_id)).toEqual(['clip-003', 'clip-007']);
    const longest = await list('sort=duration&limit=3');
    expect(longest.items.map((i) => i.media_id)).toEqual(['clip-011', 'clip-010', 'clip-009']);
    const next = await list(`sort=duration&limit=3&offset=${longest.offset}`);
    expect(next.items.map((i) => i.media_id)).toEqual(['clip-008', 'clip-007', 'clip-006']);
    const byName = await list('sort=name&order=desc&limit=2');
    expect(byName.items.map((i) => i.title)).toEqual(['Clip 9', 'Clip 8']);
    const captured = await list('sort=captured&limit=4');
    expect(captured.items.map((i) => i.media_id)).toEqual(['clip-009', 'clip-005', 'clip-001', 'clip-011']);
    expect((await s.call('GET', '/collections/mix/items?sort=name&offset=not-a-position')).status).toBe(422);
    expect((await s.call('GET', '/collections/mix/items?offset=12')).status).toBe(422);
  });
});
