import { createHmac } from 'node:crypto';
import { readFileSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settledTask, startTestServer, type TestServer } from '../support/server.js';
import { textClip } from './media.js';

/**
 * Issue 21.1: a signed media link never serves vidx's own data dir. Attacks with a user key on the kept
 * link of a path-indexed item, and with links signed by the server's own secret for its secret files.
 */
describe('signed links serve items only, never the data dir', () => {
  let s: TestServer;
  let user: string;
  let userId: string;
  const secret = () => Buffer.from(readFileSync(join(s.dataDir, 'link.secret'), 'utf8').trim(), 'base64url');
  /** A link to `rel` signed exactly as the server signs its own links. */
  const forged = (rel: string) => {
    const exp = Math.floor(Date.now() / 1000) + 600;
    const sig = createHmac('sha256', secret()).update(`${rel}\n${exp}`).digest('base64url');
    return `${s.url}/files/${rel.split('/').map(encodeURIComponent).join('/')}?exp=${exp}&sig=${sig}`;
  };
  const index = async (key: string, collection: string, file: string, mediaId: string) => {
    const r = await s.call('POST', '/index', { key, form: { video: { path: file, media_id: mediaId, title: mediaId }, collection } });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    const t = await settledTask(s, r.body.task_id, 90_000);
    expect(t.status, t.error?.message).toBe('completed');
  };
  const item = async (key: string, collection: string, mediaId: string) => (await s.call('GET', `/collections/${collection}/items/${mediaId}`, { key })).body;

  beforeAll(async () => {
    s = await startTestServer();
    const k = await s.call('POST', '/keys', { json: { name: 'mallory', role: 'user' } });
    user = k.body.key;
    userId = k.body.id;
    await s.call('POST', '/collections', { key: user, json: { collection_id: 'mine', name: 'Mine' } });
    await textClip(join(s.mediaDir, 'x.mp4'), 'HARBOUR');
    await textClip(join(s.mediaDir, 'y.mp4'), 'MEADOW');
    await index(user, 'mine', join(s.mediaDir, 'x.mp4'), 'x');
    await index(user, 'mine', join(s.mediaDir, 'y.mp4'), 'y');
  }, 180_000);
  afterAll(() => s.close());

  it('stops serving a path-indexed item once its file becomes a link to the database or the link secret', async () => {
    const src = String((await item(user, 'mine', 'x')).src);
    expect(src).toMatch(/\/files\/collections\/.*sig=/);
    expect((await fetch(src)).status).toBe(200);
    for (const target of ['vidx.db', 'link.secret', 'vidx.db-wal']) {
      rmSync(join(s.mediaDir, 'x.mp4'));
      symlinkSync(join(s.dataDir, target), join(s.mediaDir, 'x.mp4'));
      const r = await fetch(src);
      const body = Buffer.from(await r.arrayBuffer());
      expect(r.status, target).toBe(404);
      expect(body.toString('latin1')).not.toMatch(/SQLite format 3/);
      expect(body.includes(readFileSync(join(s.dataDir, 'link.secret')))).toBe(false);
    }
  });

  it('never serves the database, its WAL, the secrets or the vector indexes, even under a valid signature', async () => {
    for (const rel of ['vidx.db', 'vidx.db-wal', 'vidx.db-shm', 'link.secret', 'admin.key', 'vector-index/c1-s1.usearch', 'uploads/x.upload', 'cache/x/analysis.json']) {
      const r = await fetch(forged(rel));
      expect(r.status, rel).toBe(404);
      expect(await r.text()).not.toMatch(/SQLite format 3/);
    }
    // A file vidx wrote for an item is served by its own name, under the same signature scheme.
    const thumb = String((await item(user, 'mine', 'y')).thumbnail_url);
    const rel = decodeURIComponent(new URL(thumb).pathname.slice('/files/'.length));
    expect(rel).toMatch(/^collections\/\d+\/y\/v-[0-9a-f]{12}\/ep-0\.jpg$/);
    expect((await fetch(forged(rel))).status).toBe(200);
    // ...and not through a name that climbs out of the item folders (URL parsing folds the dots away first,
    // so the signature no longer matches; either way nothing is served).
    expect([403, 404]).toContain((await fetch(forged(`${rel.split('/').slice(0, 2).join('/')}/../../vidx.db`))).status);
  });

  it('stops every link of a revoked key’s items at once (revoke with the key)', async () => {
    const before = await item(user, 'mine', 'y');
    expect((await fetch(String(before.thumbnail_url))).status).toBe(200);
    expect((await fetch(String(before.src))).status).toBe(200);
    // An /analyze result's thumbnails belong to no collection: their links carry the key they were handed to.
    const r = await s.call('POST', '/analyze', { key: user, form: { video: { path: join(s.mediaDir, 'y.mp4'), title: 'loose' } } });
    const analysed = await settledTask(s, r.body.task_id, 90_000);
    const analysisThumb = String((analysed.result as { episodic_summary: { thumbnail: string }[] }).episodic_summary[0].thumbnail);
    expect(analysisThumb).toMatch(/\/files\/cache\/.*&k=/);
    expect((await fetch(analysisThumb)).status).toBe(200);
    // The same file under another key's name is not the signed link.
    expect((await fetch(analysisThumb.replace(/k=[^&]+/, 'k=key_env_admin'))).status).toBe(403);
    expect((await s.call('DELETE', `/keys/${userId}`)).status).toBe(200);
    expect((await fetch(String(before.thumbnail_url))).status).toBe(404);
    expect((await fetch(String(before.src))).status).toBe(404);
    expect((await fetch(analysisThumb)).status).toBe(404);
  });
});
