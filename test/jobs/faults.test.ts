/**
 * Issue 27, the faults: progress back to the server, DELETE reaching a worker mid-job, a worker killed
 * with -9 mid-job (BullMQ's stalled check hands its job to the other worker), a job delivered twice, and
 * Redis going away. Two `vidx worker` processes with data dirs of their own; the server analyses nothing
 * itself (VIDX_LOCAL_WORKERS=0).
 */
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeVideo } from '../support/folder-media.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { settledTask, startTestServer, waitFor, type TestServer } from '../support/server.js';
import { spawnWorker, type TestWorker } from '../support/worker.js';

describe('faults of the job queue', () => {
  let redis: TestRedis;
  let s: TestServer;
  /** Each worker's own key (one worker key is one worker), by worker id. */
  const keys = new Map<string, string>();
  const workers = new Map<string, TestWorker>();
  let jobs: Queue;

  const task = async (id: string) => (await s.call('GET', `/tasks/${id}`)).body;
  const index = async (file: string, media_id: string) => {
    const r = await s.call('POST', '/index', { json: { collection: 'home', video: { path: join(s.mediaDir, file), media_id } } });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    return r.body.task_id as string;
  };
  /** The worker and job a task's analysis runs as, once a worker reported it and its progress passed `past`. */
  const running = (taskId: string, past = 0.1) =>
    waitFor(async () => {
      const t = await task(taskId);
      if (t.status !== 'running' || t.progress <= past || !t.worker) return undefined;
      const holder = (await s.call('GET', '/workers')).body.workers.find((w: { id: string; jobs: string[] }) => w.jobs.some((j) => j.startsWith(taskId)));
      return holder ? { worker: holder.id as string, job: (holder.jobs as string[]).find((j) => j.startsWith(taskId))!, task: t } : undefined;
    }, 90_000, `task ${taskId} to run on a worker`);
  const addWorker = async (id: string) => {
    const key = (await s.call('POST', '/keys', { json: { name: `worker-${id}`, role: 'worker' } })).body.key as string;
    keys.set(id, key);
    workers.set(id, await spawnWorker({ server: s.url, queue: redis.url, key, id }));
  };

  beforeAll(async () => {
    redis = await startRedis();
    s = await startTestServer({ env: { VIDX_QUEUE_URL: redis.url, VIDX_LOCAL_WORKERS: '0' } });
    // Long enough (about 15 s of analysis here) to act on a job while it runs.
    // Each short one is new content, so each goes through the queue (the same content again is the analysis cache's).
    await Promise.all([
      makeVideo(join(s.mediaDir, 'long.mp4'), 'A LONG TALK', 150),
      ...['short', 'twice', 'later'].map((name, i) => makeVideo(join(s.mediaDir, `${name}.mp4`), name.toUpperCase(), 2, {}, ['maroon', 'green', 'purple'][i])),
    ]);
    await s.call('POST', '/collections', { json: { collection_id: 'home', name: 'Home' } });
    await Promise.all([addWorker('w1'), addWorker('w2')]);
    const { queue } = (await s.call('GET', '/workers')).body;
    jobs = new Queue(queue.name, { connection: { url: redis.url }, prefix: queue.prefix });
    jobs.on('error', () => {});
  }, 180_000);
  afterAll(async () => {
    await jobs?.close();
    await Promise.all([...workers.values()].map((w) => w.stop()));
    await s?.close();
    await redis?.stop();
  });

  it('brings progress back from the worker, and a DELETE of the task stops the job on its worker', async () => {
    const id = await index('long.mp4', 'cancelled');
    const { worker, job, task: t } = await running(id);
    expect(t.step.code).not.toBe('queued');
    expect(t.stage).not.toBe('waiting for a worker');
    expect(t.worker).toBe(worker);
    expect((await s.call('DELETE', `/tasks/${id}`)).status).toBe(200);
    // The worker hears it with its next heartbeat and stops the job: BullMQ records it cancelled.
    await waitFor(async () => ((await jobs.getJob(job))?.failedReason?.includes('cancelled') ? true : undefined), 15_000, 'the job to be cancelled');
    await waitFor(async () => ((await s.call('GET', '/workers')).body.workers.every((w: { jobs: string[] }) => w.jobs.length === 0) ? true : undefined), 10_000, 'the worker to be idle');
    expect(await (await jobs.getJob(job))!.getState()).toBe('failed');
    expect(workers.get(worker)!.child.exitCode).toBeNull();
    // The worker goes on with the next job.
    const next = await settledTask(s, await index('short.mp4', 'after-cancel'), 120_000);
    expect(next.status, next.error?.message).toBe('completed');
  }, 240_000);

  it('hands the job of a worker killed with -9 mid-job to the other worker once its lease ran out, which completes it once', async () => {
    const id = await index('long.mp4', 'survivor');
    const { worker, job } = await running(id);
    await workers.get(worker)!.kill();
    workers.delete(worker);
    const done = await settledTask(s, id, 240_000);
    expect(done.status, done.error?.message).toBe('completed');
    const other = [...workers.keys()][0]!;
    expect(done.worker).toBe(other);
    // Nothing doubled: one item, one delivery committed, no duplicate, one run of the task.
    const items = (await s.call('GET', '/collections/home/items?limit=100')).body.items as { media_id: string }[];
    expect(items.filter((i) => i.media_id === 'survivor')).toHaveLength(1);
    expect(s.vidx.store.jobs.get(job)).toMatchObject({ worker: other, duplicates: 0 });
    expect(done.attempts).toBe(1);
    const finished = (await jobs.getJob(job))!;
    expect(await finished.getState()).toBe('completed');
    expect(finished.stalledCounter).toBe(1);
    await addWorker('w3');
  }, 300_000);

  it('commits a job delivered a second time nothing more', async () => {
    const id = await index('twice.mp4', 'twice');
    expect((await settledTask(s, id, 120_000)).status).toBe('completed');
    const row = s.vidx.store.db.prepare('SELECT job_id, worker FROM analysis_jobs WHERE task_id = ?').get(id) as { job_id: string; worker: string };
    const before = (await s.call('GET', '/collections/home/items/twice')).body;
    const form = new FormData();
    const analysis = { type: 'video', duration: 1, language: 'en', title: 'FORGED', transcript: [], transcriptSource: 'none', screenText: [], visual: [], episodes: [], summary: 'forged', warnings: [], passageVectors: null, frameVectors: null };
    // Sent again by the worker that delivered it (the only key that may deliver it at all).
    form.set('body', JSON.stringify({ worker: row.worker, files: [], analysis }));
    const again = await s.call('POST', `/worker/jobs/${row.job_id}/result`, { key: keys.get(row.worker)!, body: form });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.status).toBe('duplicate');
    expect(s.vidx.store.jobs.get(row.job_id)).toMatchObject({ duplicates: 1 });
    expect((await s.call('GET', '/collections/home/items/twice')).body).toEqual(before);
  }, 180_000);

  it('keeps search answering while Redis is away; new tasks wait as queued and run when it is back', async () => {
    await redis.kill();
    const health = async () => (await s.call('GET', '/health', { key: null })).body;
    await waitFor(async () => ((await health()).queue.connected === false ? true : undefined), 15_000, '/health to say Redis is away');
    expect((await health()).work.limit).toBe(0);
    const search = await s.call('POST', '/search', { json: { collection: 'home', query: 'short' } });
    expect(search.status).toBe(200);
    const id = await index('later.mp4', 'while-down');
    await new Promise((r) => setTimeout(r, 3_000));
    expect((await task(id)).status).toBe('queued');
    await redis.restart();
    await waitFor(async () => ((await health()).queue.connected ? true : undefined), 20_000, 'Redis to be back');
    const done = await settledTask(s, id, 120_000);
    expect(done.status, done.error?.message).toBe('completed');
  }, 240_000);
});

describe('tasks with no worker running', () => {
  let redis: TestRedis;
  let s: TestServer;
  let worker: TestWorker | undefined;

  beforeAll(async () => {
    redis = await startRedis();
    s = await startTestServer({ env: { VIDX_QUEUE_URL: redis.url, VIDX_LOCAL_WORKERS: '0' } });
    await makeVideo(join(s.mediaDir, 'clip.mp4'), 'WAITING', 2);
    await s.call('POST', '/collections', { json: { collection_id: 'home', name: 'Home' } });
  }, 120_000);
  afterAll(async () => {
    await worker?.stop();
    await s?.close();
    await redis?.stop();
  });

  it('wait as queued, neither failing nor lost, and run once a worker comes', async () => {
    const r = await s.call('POST', '/index', { json: { collection: 'home', video: { path: join(s.mediaDir, 'clip.mp4') } } });
    await new Promise((res) => setTimeout(res, 4_000));
    expect((await s.call('GET', `/tasks/${r.body.task_id}`)).body).toMatchObject({ status: 'queued', worker: null });
    const health = (await s.call('GET', '/health', { key: null })).body;
    expect(health).toMatchObject({ workers: 0, work: { limit: 0, running: 0, queued: 1 }, queue: { connected: true } });
    const key = (await s.call('POST', '/keys', { json: { name: 'late', role: 'worker' } })).body.key;
    worker = await spawnWorker({ server: s.url, queue: redis.url, key, id: 'late' });
    const done = await settledTask(s, r.body.task_id, 120_000);
    expect(done).toMatchObject({ status: 'completed', worker: 'late' });
  }, 180_000);
});
