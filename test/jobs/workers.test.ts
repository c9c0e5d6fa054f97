/**
 * Issue 27: analyses through Redis (BullMQ) on `vidx worker` processes. Two workers with data dirs of
 * their own and no access to the server's media roots; the server analyses nothing itself
 * (VIDX_LOCAL_WORKERS=0), so every job visibly went through the queue.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureCorpus } from '../support/corpus.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { settledTask, startTestServer, waitFor, type TestServer } from '../support/server.js';
import { spawnWorker, type TestWorker } from '../support/worker.js';

describe('analyses on two vidx workers', () => {
  let redis: TestRedis;
  let s: TestServer;
  let workerKey: string;
  const workers: TestWorker[] = [];

  beforeAll(async () => {
    const corpus = await ensureCorpus();
    redis = await startRedis();
    s = await startTestServer({ env: { VIDX_QUEUE_URL: redis.url, VIDX_LOCAL_WORKERS: '0' } });
    for (const f of ['german.mp4', 'german.de.srt', 'german.en.vtt']) copyFileSync(join(corpus.dir, f), join(s.mediaDir, f));
    mkdirSync(join(s.mediaDir, 'sub'), { recursive: true });
    const r = await s.call('POST', '/keys', { json: { name: 'desk', role: 'worker' } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    workerKey = r.body.key;
    await s.call('POST', '/collections', { json: { collection_id: 'home', name: 'Home' } });
    workers.push(...(await Promise.all(['w1', 'w2'].map((id) => spawnWorker({ server: s.url, queue: redis.url, key: workerKey, id })))));
    await waitFor(async () => ((await s.call('GET', '/workers')).body.workers.length === 2 ? true : undefined), 20_000, 'two workers');
  }, 180_000);
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await s?.close();
    await redis?.stop();
  });

  it('shows the workers to admins and counts them in /health', async () => {
    const { workers: list, queue } = (await s.call('GET', '/workers')).body;
    expect(list.map((w: { id: string }) => w.id).sort()).toEqual(['w1', 'w2']);
    for (const w of list) {
      expect(w).toMatchObject({ local: false, concurrency: 1, takes_jobs: true, reason: null, jobs: [] });
      expect(w.models.ocr.available).toBe(true);
      expect(Date.parse(w.last_seen_at)).toBeGreaterThan(Date.now() - 10_000);
    }
    expect(queue).toMatchObject({ connected: true, local_workers: 0, capacity: 2 });
    const health = (await s.call('GET', '/health', { key: null })).body;
    expect(health.workers).toBe(2);
    expect(health.work.limit).toBe(2);
  });

  it('lets a worker key reach the job endpoints and nothing else', async () => {
    const paths = ['/collections', '/tasks', '/me', '/keys', '/workers', '/health', '/openapi.json', '/models', '/collections/home/items'];
    for (const path of paths) expect((await s.call('GET', path, { key: workerKey })).status, path).toBe(403);
    expect((await s.call('POST', '/search', { key: workerKey, json: { collection: 'home', query: 'x' } })).status).toBe(403);
    expect((await s.call('POST', '/index', { key: workerKey, json: { collection: 'home', video: { path: join(s.mediaDir, 'german.mp4') } } })).status).toBe(403);
    // ...and only a worker key reaches them.
    const beat = { id: 'x', host: 'h', version: '0', concurrency: 1, models: {}, queue: 'q', jobs: [] };
    expect((await s.call('POST', '/worker/heartbeat', { json: beat })).status).toBe(403);
    expect((await s.call('POST', '/worker/heartbeat', { key: workerKey, json: beat })).status).toBe(200);
  });

  it('indexes a file with its sidecar subtitles on a worker that reads it through signed links', async () => {
    const r = await s.call('POST', '/index', { json: { collection: 'home', video: { path: join(s.mediaDir, 'german.mp4'), media_id: 'wetter' } } });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    const task = await settledTask(s, r.body.task_id, 120_000);
    expect(task.status, task.error?.message).toBe('completed');
    expect(['w1', 'w2']).toContain(task.worker);
    expect(task.result).toMatchObject({ status: 'indexed', transcript_source: 'sidecar' });
    const found = await s.call('POST', '/search', { json: { collection: 'home', query: 'Wetter' } });
    expect(found.body.results?.length ?? found.body.items?.length).toBeGreaterThan(0);
  }, 150_000);
});
