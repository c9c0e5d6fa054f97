import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeVideo } from '../support/folder-media.js';
import { movableClock } from '../support/movable-clock.js';
import { settledTask, startTestServer, type TestServer } from '../support/server.js';

/**
 * Issue 44.7: the time services judge by is handed down by the app, so a share's day and a signed link's
 * day pass here under a clock the test moves, with no waiting and no reach into the database.
 */
describe('a share link and its file links, as their time runs out', () => {
  const time = movableClock(Date.parse('2026-06-01T12:00:00Z'));
  let s: TestServer;
  let owner: string;

  beforeAll(async () => {
    s = await startTestServer({ queryEmbedder: null, time });
    owner = await s.newKey();
    await s.call('POST', '/collections', { key: owner, json: { collection_id: 'family', name: 'Family' } });
    await makeVideo(join(s.mediaDir, 'Strand.mp4'), 'Sandburg bauen', 4);
    const r = await s.call('POST', '/index', { key: owner, form: { collection: 'family', video: { path: join(s.mediaDir, 'Strand.mp4'), media_id: 'beach' } } });
    expect((await settledTask(s, r.body.task_id)).status).toBe('completed');
  }, 120_000);
  afterAll(() => s.close());

  it('stamps the share with the app clock, plays it within its day and stops it and its files after', async () => {
    const made = await s.call('POST', '/collections/family/items/beach/shares', { key: owner, json: { days: 1 } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.created_at).toBe('2026-06-01T12:00:00.000Z');
    expect(made.body.expires_at).toBe('2026-06-02T12:00:00.000Z');
    const token = made.body.url.split('/#/s/')[1];

    time.pass(23 * 3_600_000);
    const shared = await s.call('GET', `/shared/${token}`, { key: null });
    expect(shared.status).toBe(200);
    expect((await fetch(shared.body.src)).status).toBe(200);
    expect((await s.call('GET', '/collections/family/items/beach/shares', { key: owner })).body.shares).toHaveLength(1);

    time.pass(2 * 3_600_000);
    expect((await s.call('GET', `/shared/${token}`, { key: null })).status).toBe(404);
    // The file link handed out an hour before the end is still within its signature's day, yet bound to the
    // share: it stops with it.
    expect((await fetch(shared.body.src)).status).toBe(404);
    expect((await s.call('GET', '/collections/family/items/beach/shares', { key: owner })).body.shares).toEqual([]);
  });

  it('signs the item\u2019s own file links for one day of the app clock', async () => {
    const item = await s.call('GET', '/collections/family/items/beach', { key: owner });
    const thumb: string = item.body.thumbnail_url;
    expect(thumb).toMatch(/exp=\d+/);
    const exp = Number(new URL(thumb).searchParams.get('exp'));
    expect(exp).toBe(Math.floor(time.now().getTime() / 1000) + 24 * 3600);
    expect((await fetch(thumb)).status).toBe(200);
    time.pass(24 * 3_600_000 + 1000);
    expect((await fetch(thumb)).status).toBe(403);
  });
});
