/**
 * Issue 27: with a queue and no `vidx worker`, the server's own worker (VIDX_LOCAL_WORKERS, 1 by default)
 * takes every kind of analysis job: /analyze, /index, a folder's files and a re-index.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agedFiles, makeVideo } from '../support/folder-media.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { settledTask, startTestServer, type TestServer } from '../support/server.js';

describe('the server’s own worker', () => {
  let redis: TestRedis;
  let s: TestServer;

  beforeAll(async () => {
    redis = await startRedis();
    s = await startTestServer({ env: { VIDX_QUEUE_URL: redis.url } });
    mkdirSync(join(s.mediaDir, 'folder'));
    await Promise.all([
      makeVideo(join(s.mediaDir, 'one.mp4'), 'ONE', 2),
      makeVideo(join(s.mediaDir, 'folder', 'a.mp4'), 'FOLDER A', 2, {}, 'green'),
      makeVideo(join(s.mediaDir, 'folder', 'b.mp4'), 'FOLDER B', 2, {}, 'purple'),
    ]);
    // Older than a scan's stability wait.
    agedFiles(s.mediaDir);
    await s.call('POST', '/collections', { json: { collection_id: 'home', name: 'Home' } });
  }, 120_000);
  afterAll(async () => {
    await s?.close();
    await redis?.stop();
  });

  it('is listed and counted', async () => {
    const { workers, queue } = (await s.call('GET', '/workers')).body;
    expect(workers).toEqual([expect.objectContaining({ id: 'local', local: true, takes_jobs: true, concurrency: 1, jobs: [] })]);
    expect(queue).toMatchObject({ connected: true, local_workers: 1, capacity: 1 });
    expect((await s.call('GET', '/health', { key: null })).body).toMatchObject({ workers: 1, work: { limit: 1 } });
  });

  it('runs analyze, index, folder and re-index jobs', async () => {
    const analyzed = await settledTask(s, (await s.call('POST', '/analyze', { json: { video: { path: join(s.mediaDir, 'one.mp4') } } })).body.task_id);
    expect(analyzed, JSON.stringify(analyzed.error)).toMatchObject({ status: 'completed', worker: 'local' });
    const indexed = await settledTask(s, (await s.call('POST', '/index', { json: { collection: 'home', video: { path: join(s.mediaDir, 'one.mp4'), media_id: 'one' } } })).body.task_id);
    // The same content again: the analysis cache has it.
    expect(indexed).toMatchObject({ status: 'completed', result: { status: 'indexed' } });
    const folder = await s.call('POST', '/collections/home/folders', { json: { path: join(s.mediaDir, 'folder'), watch: false } });
    const scan = await settledTask(s, folder.body.scan_task_id);
    expect(scan).toMatchObject({ status: 'completed', worker: 'local', result: { found: 2, added: 2 } });
    const reindex = await s.call('POST', '/collections/home/reindex', { json: { media_ids: ['one'] } });
    expect(reindex.status, JSON.stringify(reindex.body)).toBe(202);
    const again = await settledTask(s, reindex.body.task_id);
    expect(again.status, again.error?.message).toBe('completed');
  }, 180_000);
});
