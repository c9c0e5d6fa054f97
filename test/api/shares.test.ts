import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeVideo } from '../support/folder-media.js';
import { settledTask, startTestServer, type TestServer } from '../support/server.js';

/**
 * Issue 23.10: a share link plays one item's moment without a key, read-only, for 1 or 7 days; its owner
 * lists and revokes it, and revoking stops every file link it handed out.
 */
describe('share links to a moment', () => {
  let s: TestServer;
  let owner: string;
  let other: string;

  beforeAll(async () => {
    s = await startTestServer({ queryEmbedder: null });
    owner = await s.newKey();
    other = await s.newKey();
    await s.call('POST', '/collections', { key: owner, json: { collection_id: 'family', name: 'Family' } });
    await makeVideo(join(s.mediaDir, 'Geburtstag.mp4'), 'Kerzen auspusten', 6);
    const r = await s.call('POST', '/index', { key: owner, form: { collection: 'family', video: { path: join(s.mediaDir, 'Geburtstag.mp4'), media_id: 'party' } } });
    expect((await settledTask(s, r.body.task_id)).status).toBe('completed');
  }, 120_000);
  afterAll(() => s.close());

  it('makes a link that plays the moment without a key; lists it; revoking stops the link and its files', async () => {
    const made = await s.call('POST', '/collections/family/items/party/shares', { key: owner, json: { days: 7, start_time: 3 } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.url).toMatch(new RegExp(`^${s.url}/#/s/[A-Za-z0-9_-]{20,}$`));
    const week = Date.parse(made.body.expires_at) - Date.parse(made.body.created_at);
    expect(week).toBe(7 * 86_400_000);
    const token = made.body.url.split('/#/s/')[1];

    const shared = await s.call('GET', `/shared/${token}`, { key: null });
    expect(shared.status).toBe(200);
    expect(shared.body).toMatchObject({ title: 'Geburtstag', type: 'video', start_time: 3, chapters: expect.any(Array), transcript: expect.any(Array) });
    expect(shared.body).not.toHaveProperty('media_id');
    const video = await fetch(shared.body.src);
    expect(video.status).toBe(200);
    expect((await video.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    // The link opens that one item: nothing else of the collection answers without a key.
    expect((await s.call('GET', '/collections/family/items', { key: null })).status).toBe(401);

    const listed = (await s.call('GET', '/collections/family/items/party/shares', { key: owner })).body.shares;
    expect(listed).toEqual([expect.objectContaining({ share_id: made.body.share_id, url: made.body.url, start_time: 3 })]);
    expect((await s.call('GET', '/collections/family/items/party/shares', { key: other })).status).toBe(404);
    expect((await s.call('DELETE', `/collections/family/items/party/shares/${made.body.share_id}`, { key: other })).status).toBe(404);

    expect((await s.call('DELETE', `/collections/family/items/party/shares/${made.body.share_id}`, { key: owner })).status).toBe(200);
    expect((await s.call('GET', `/shared/${token}`, { key: null })).status).toBe(404);
    expect((await fetch(shared.body.src)).status).toBe(404);
    expect((await s.call('GET', '/collections/family/items/party/shares', { key: owner })).body.shares).toEqual([]);
  });

  it('refuses other lifetimes, a start past the end, unknown tokens; an item deleted takes its shares along', async () => {
    expect((await s.call('POST', '/collections/family/items/party/shares', { key: owner, json: { days: 30 } })).status).toBe(422);
    const late = await s.call('POST', '/collections/family/items/party/shares', { key: owner, json: { days: 1, start_time: 999 } });
    expect(late.status).toBe(422);
    expect(late.body.errors[0].field).toBe('start_time');
    expect((await s.call('GET', '/shared/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', { key: null })).status).toBe(404);
    const day = await s.call('POST', '/collections/family/items/party/shares', { key: owner, json: { days: 1 } });
    expect(Date.parse(day.body.expires_at) - Date.parse(day.body.created_at)).toBe(86_400_000);
    const token = day.body.url.split('/#/s/')[1];
    expect((await s.call('DELETE', '/collections/family/items/party', { key: owner })).status).toBe(200);
    expect((await s.call('GET', `/shared/${token}`, { key: null })).status).toBe(404);
  });
});
