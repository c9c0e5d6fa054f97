/**
 * Issue 27: the server restarts (kill -9) while a job runs on a worker. The worker keeps the job and
 * delivers its result once the server is back; the task, run again after the start, takes it and commits
 * the item once.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeVideo } from '../support/folder-media.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { ADMIN_KEY, waitFor } from '../support/server.js';
import { spawnVidx, type ChildVidx } from '../support/spawn-server.js';
import { spawnWorker, type TestWorker } from '../support/worker.js';

describe('a server restart while its jobs are in Redis', () => {
  let redis: TestRedis;
  let dir: string;
  let env: Record<string, string>;
  let server: ChildVidx | undefined;
  let worker: TestWorker | undefined;

  // `any`: the tests read fields of the answers directly; a wrong guess fails the assertion.
  const call = async (url: string, method: string, path: string, json?: unknown, key = ADMIN_KEY): Promise<{ status: number; body: any }> => {
    const res = await fetch(`${url}${path}`, { method, headers: { 'x-api-key': key, ...(json ? { 'content-type': 'application/json' } : {}) }, body: json ? JSON.stringify(json) : undefined });
    return { status: res.status, body: await res.json().catch(() => null) };
  };

  beforeAll(async () => {
    redis = await startRedis();
    dir = mkdtempSync(join(tmpdir(), 'vidx-restart-'));
    mkdirSync(join(dir, 'media'));
    await makeVideo(join(dir, 'media', 'long.mp4'), 'RESTART TALK', 150);
    env = {
      VIDX_DATA_DIR: join(dir, 'data'), VIDX_MEDIA_ROOTS: join(dir, 'media'), VIDX_ADMIN_KEY: ADMIN_KEY,
      VIDX_QUEUE_URL: redis.url, VIDX_LOCAL_WORKERS: '0',
    };
  }, 120_000);
  afterAll(async () => {
    await worker?.stop();
    server?.child.kill('SIGKILL');
    await server?.exited;
    await redis?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('commits the result a worker delivers after the restart, once', async () => {
    server = await spawnVidx('test/support/child-server.ts', env);
    const url = server.url;
    // The restarted server comes back on the port the system gave the first one: the worker keeps its URL.
    env.VIDX_PORT = new URL(url).port;
    const key = (await call(url, 'POST', '/keys', { name: 'w', role: 'worker' })).body.key as string;
    await call(url, 'POST', '/collections', { collection_id: 'home', name: 'Home' });
    worker = await spawnWorker({ server: url, queue: redis.url, key, id: 'steady' });
    const id = (await call(url, 'POST', '/index', { collection: 'home', video: { path: join(dir, 'media', 'long.mp4'), media_id: 'talk' } })).body.task_id as string;
    await waitFor(async () => {
      const t = (await call(url, 'GET', `/tasks/${id}`)).body;
      return t.worker === 'steady' && t.progress > 0.1 ? true : undefined;
    }, 90_000, 'the job to run on the worker');

    server.child.kill('SIGKILL');
    await server.exited;
    await new Promise((r) => setTimeout(r, 1_000));
    server = await spawnVidx('test/support/child-server.ts', env);
    expect(server.url).toBe(url);

    const done = await waitFor(async () => {
      const t = (await call(url, 'GET', `/tasks/${id}`)).body;
      return t.status === 'completed' || t.status === 'failed' ? t : undefined;
    }, 180_000, 'the task after the restart');
    expect(done.status, done.error?.message).toBe('completed');
    expect(done).toMatchObject({ worker: 'steady', attempts: 2, result: { status: 'indexed' } });
    const items = (await call(url, 'GET', '/collections/home/items')).body.items as { media_id: string }[];
    expect(items.map((i) => i.media_id)).toEqual(['talk']);
    // The worker analysed it once: one job of the task, started once, never stalled.
    const { queue } = (await call(url, 'GET', '/workers')).body;
    const jobs = new Queue(queue.name, { connection: { url: redis.url }, prefix: queue.prefix });
    try {
      const ofTask = (await jobs.getJobs(['completed', 'failed', 'active', 'waiting', 'delayed'])).filter((j) => j.id?.startsWith(id));
      expect(ofTask.map((j) => [j.attemptsStarted, j.stalledCounter, (j.returnvalue as { delivered: string }).delivered])).toEqual([[1, 0, 'committed']]);
    } finally {
      await jobs.close();
    }
  }, 300_000);
});
