/**
 * Issue 27: analyses through Redis (BullMQ) on `vidx worker` processes. Two workers with data dirs and
 * keys of their own and no access to the server's media roots; the server analyses nothing itself
 * (VIDX_LOCAL_WORKERS=0), so every job visibly went through the queue. Issue 32: a third worker key that
 * only attacks gets none of their jobs and cannot raise the server's capacity.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureCorpus } from '../support/corpus.js';
import { makeVideo } from '../support/folder-media.js';
import { analysisOf, handWorker, jpeg, type HandWorker } from '../support/hand-worker.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { settledTask, startTestServer, waitFor, type TestServer } from '../support/server.js';
import { spawnWorker, type TestWorker } from '../support/worker.js';

describe('analyses on two vidx workers', () => {
  let redis: TestRedis;
  let s: TestServer;
  let workerKey: string;
  let attacker: HandWorker;
  const workers: TestWorker[] = [];

  beforeAll(async () => {
    const corpus = await ensureCorpus();
    redis = await startRedis();
    s = await startTestServer({ env: { VIDX_QUEUE_URL: redis.url, VIDX_LOCAL_WORKERS: '0' } });
    for (const f of ['german.mp4', 'german.de.srt', 'german.en.vtt']) copyFileSync(join(corpus.dir, f), join(s.mediaDir, f));
    mkdirSync(join(s.mediaDir, 'sub'), { recursive: true });
    await makeVideo(join(s.mediaDir, 'long.mp4'), 'A LONG TALK', 150);
    // One worker key is one worker: each worker has its own.
    const keys = await Promise.all(['desk-1', 'desk-2'].map(async (name) => {
      const r = await s.call('POST', '/keys', { json: { name, role: 'worker' } });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      return r.body.key as string;
    }));
    workerKey = keys[0]!;
    attacker = await handWorker(s, 'evil');
    await s.call('POST', '/collections', { json: { collection_id: 'home', name: 'Home' } });
    workers.push(...(await Promise.all(['w1', 'w2'].map((id, i) => spawnWorker({ server: s.url, queue: redis.url, key: keys[i]!, id })))));
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
      expect(w).toMatchObject({ local: false, concurrency: 1, takes_jobs: true, reason: null, jobs: [], key: { name: `desk-${w.id.slice(1)}` } });
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
    const spare = (await s.call('POST', '/keys', { json: { name: 'spare', role: 'worker' } })).body.key;
    expect((await s.call('POST', '/worker/heartbeat', { key: spare, json: beat })).status).toBe(200);
    // ...as the one worker its key is: w1's key is not x's.
    expect((await s.call('POST', '/worker/heartbeat', { key: workerKey, json: beat })).body.code).toBe('worker_id_mismatch');
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
    // What duplicates compare arrives from the worker whole: every frame's hash and look, and the sound print.
    const collection = s.vidx.store.collections.findById('home')!;
    const row = s.vidx.store.prints.sequenceOf(s.vidx.store.items.find(collection.pk, 'wetter')!.pk)!;
    expect(row.hashes.length / 8).toBeGreaterThan(100);
    expect(row.looks!.length).toBe((row.hashes.length / 8) * 13);
    expect(row.sound_fps).toBe(10);
    expect(row.sound!.length / 5).toBeGreaterThan(100);
  }, 150_000);

  it('keeps a job with the real worker that started it against a key that only attacks, and its result lands', async () => {
    const r = await s.call('POST', '/index', { json: { collection: 'home', video: { path: join(s.mediaDir, 'long.mp4'), media_id: 'talk' } } });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    const id = r.body.task_id as string;
    const { holder, job } = await waitFor(async () => {
      const t = (await s.call('GET', `/tasks/${id}`)).body;
      if (t.status !== 'running' || t.progress <= 0.05 || !t.worker) return undefined;
      const w = (await s.call('GET', '/workers')).body.workers.find((x: { jobs: string[] }) => x.jobs.some((j) => j.startsWith(id)));
      return w ? { holder: w.id as string, job: (w.jobs as string[]).find((j) => j.startsWith(id))! } : undefined;
    }, 90_000, 'the job to run on a worker');

    // Spoofed heartbeats: `local`, ten more ids, 64 jobs at once. None is counted; the limit is the two workers and the attacker's one job.
    expect((await attacker.beat({ id: 'local', concurrency: 64 })).status).toBe(403);
    expect((await attacker.beat()).status).toBe(200);
    for (let i = 0; i < 10; i++) expect((await attacker.beat({ id: `evil-${i}`, concurrency: 64 })).status).toBe(403);
    expect((await attacker.beat({ concurrency: 64 })).status).toBe(422);
    expect((await s.call('GET', '/health', { key: null })).body.work.limit).toBe(3);

    // The attacker cannot start the job (no links), report on it or deliver it, under its own name or the holder's.
    const start = await attacker.start(job);
    expect(start.status).toBe(409);
    expect(start.body.code).toBe('job_held');
    expect(JSON.stringify(start.body)).not.toContain('/files/');
    expect((await attacker.progress(job, 0.99)).status).toBe(403);
    const forged = await attacker.deliver(job, analysisOf('FORGED'), { 'ep-0.jpg': await jpeg() });
    expect(forged.status).toBe(403);
    expect(forged.body.code).toBe('job_not_held');
    // Naming the holder in the body changes nothing: the job is checked from the path and the key before the body is read.
    expect((await attacker.deliver(job, analysisOf('FORGED'), {}, holder)).body.code).toBe('job_not_held');

    // The real result lands, from the worker that started the job.
    const done = await settledTask(s, id, 180_000);
    expect(done).toMatchObject({ status: 'completed', worker: holder });
    const item = (await s.call('GET', '/collections/home/items/talk')).body;
    expect(JSON.stringify(item)).not.toContain('FORGED');
    expect(s.vidx.store.jobs.get(job)).toMatchObject({ worker: holder, duplicates: 0 });
  }, 240_000);
});
