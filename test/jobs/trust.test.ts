/**
 * Issue 32: a job belongs to the worker key that started it, one worker key is one worker, deliveries are
 * checked, and a worker's analysis serves only its job's owner. Worker keys are driven by hand here (no
 * `vidx worker` process takes the jobs, so the test decides who starts what); trust-workers.test.ts runs
 * two real workers against a key that only attacks. Everything on 127.0.0.1.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeVideo } from '../support/folder-media.js';
import { analysisOf, handWorker, jpeg, type HandWorker } from '../support/hand-worker.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { settledTask, startTestServer, waitFor, type TestServer } from '../support/server.js';

const HTML = new TextEncoder().encode('<!doctype html><html><body><script>alert(1)</script></body></html>');

describe('worker keys driven by hand', () => {
  let redis: TestRedis;
  let s: TestServer;
  let a: HandWorker;
  let b: HandWorker;
  let evil: HandWorker;
  const beating: { stop(): void }[] = [];

  const health = async () => (await s.call('GET', '/health', { key: null })).body;
  /** The job of a task, once the server queued it. */
  const jobOf = (task: string) =>
    waitFor(() => (s.vidx.store.db.prepare('SELECT job_id FROM analysis_jobs WHERE task_id = ?').get(task) as { job_id: string } | undefined)?.job_id, 20_000, `the job of ${task}`);
  const analyze = async (key?: string) => {
    const r = await s.call('POST', '/analyze', { key, json: { video: { path: join(s.mediaDir, 'clip.mp4') } } });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    return r.body.task_id as string;
  };

  beforeAll(async () => {
    redis = await startRedis();
    s = await startTestServer({ env: { VIDX_QUEUE_URL: redis.url, VIDX_LOCAL_WORKERS: '0' } });
    await makeVideo(join(s.mediaDir, 'clip.mp4'), 'HELD', 2);
    [a, b, evil] = await Promise.all(['fa', 'fb', 'evil'].map((id) => handWorker(s, id)));
  }, 60_000);
  afterAll(async () => {
    for (const t of beating) t.stop();
    await s?.close();
    await redis?.stop();
  });

  it('fixes a key to one worker id, refuses reserved and other ids, and caps what it may announce', async () => {
    const reserved = await evil.beat({ id: 'local' });
    expect(reserved.status).toBe(403);
    expect(reserved.body).toMatchObject({ code: 'worker_id_reserved', errors: [{ field: 'id' }] });
    expect((await evil.beat()).status).toBe(200);
    // Ten more ids with 64 jobs each: each refused, and /health counts the one worker with its one job.
    for (let i = 0; i < 10; i++) {
      const other = await evil.beat({ id: `evil-${i}`, concurrency: 64 });
      expect(other.status).toBe(403);
      expect(other.body.code).toBe('worker_id_mismatch');
    }
    const over = await evil.beat({ concurrency: 64 });
    expect(over.status).toBe(422);
    expect(over.body).toMatchObject({ code: 'concurrency_over_cap', errors: [{ field: 'concurrency' }] });
    expect((await health()).work.limit).toBe(1);
    expect((await evil.beat({ concurrency: 8 })).status).toBe(200);
    expect((await health()).work.limit).toBe(8);
    expect((await evil.beat({ concurrency: 1 })).status).toBe(200);
    // An id another key is fixed to is not this key's.
    const twin = await handWorker(s, 'evil');
    expect((await twin.beat()).body.code).toBe('worker_id_taken');
    // /workers names each worker's key (its id and name), never the key itself.
    const list = await s.call('GET', '/workers');
    const shown = list.body.workers.find((w: { id: string }) => w.id === 'evil');
    expect(shown.key).toEqual({ id: expect.stringMatching(/^key_/), name: 'hand-evil' });
    expect(JSON.stringify(list.body)).not.toContain(evil.key);
    const keys = (await s.call('GET', '/keys')).body.keys as { name: string; worker_id: string | null; max_concurrency: number | null }[];
    expect(keys.find((k) => k.name === 'hand-evil')).toMatchObject({ worker_id: 'evil', max_concurrency: 8 });
  });

  it('takes a cap and a worker id given when the key is made', async () => {
    const made = await s.call('POST', '/keys', { json: { name: 'small', role: 'worker', worker_id: 'small-1', max_concurrency: 2 } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const queue = (await s.call('GET', '/worker/setup', { key: made.body.key })).body.queue;
    const beat = (id: string, concurrency: number) => s.call('POST', '/worker/heartbeat', { key: made.body.key, json: { id, host: 'h', version: '0', concurrency, models: {}, queue: `${queue}-not-the-servers`, jobs: [] } });
    expect((await beat('small-1', 3)).body.code).toBe('concurrency_over_cap');
    expect((await beat('small-2', 1)).body.code).toBe('worker_id_mismatch');
    expect((await beat('small-1', 2)).status).toBe(200);
    expect((await s.call('POST', '/keys', { json: { name: 'bad', role: 'worker', worker_id: 'local' } })).body).toMatchObject({ code: 'validation_error', errors: [{ field: 'worker_id' }] });
    expect((await s.call('POST', '/keys', { json: { name: 'bad', role: 'user', max_concurrency: 2 } })).status).toBe(422);
  });

  it('holds a job for the key that started it until its lease runs out; only the holder reports and delivers', async () => {
    beating.push(a.keepBeating());
    const task = await analyze();
    const job = await jobOf(task);
    beating.pop()!.stop();
    const aBeats = a.keepBeating([job]);
    beating.push(aBeats);
    const started = await a.start(job);
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(started.body.status).toBe('ready');
    expect(started.body.files[0].url).toContain('/files/');
    expect((await fetch(started.body.files[0].url)).status).toBe(200);

    // Another key, announced or not, gets a 409 and no links while the job is held.
    expect((await b.beat()).status).toBe(200);
    for (const other of [b, evil]) {
      const second = await other.start(job);
      expect(second.status).toBe(409);
      expect(second.body.code).toBe('job_held');
      expect(JSON.stringify(second.body)).not.toContain('/files/');
    }
    // Nor may it report or deliver, spoofing `local` or not.
    expect((await evil.progress(job, 0.9)).body.code).toBe('job_not_held');
    const forged = await evil.deliver(job, analysisOf('FORGED'), { 'ep-0.jpg': HTML });
    expect(forged.status).toBe(403);
    expect(forged.body.code).toBe('job_not_held');
    // The job is checked from the path and the key before the body (which names the worker) is read.
    expect((await evil.deliver(job, analysisOf('FORGED'), {}, 'local')).body.code).toBe('job_not_held');
    expect((await a.start(job, 'local')).body.code).toBe('worker_id_mismatch');

    // The holder's progress reaches the task; its bad deliveries are refused by name.
    expect((await a.progress(job, 0.5)).body).toEqual({ status: 'ok' });
    await waitFor(async () => ((await s.call('GET', `/tasks/${task}`)).body.stage === 'by hand' ? true : undefined), 5_000, 'the progress');
    const html = await a.deliver(job, analysisOf('HTML'), { 'ep-0.jpg': HTML });
    expect(html.status).toBe(422);
    expect(html.body).toMatchObject({ code: 'bad_thumbnail', errors: [{ field: 'files.ep-0.jpg' }] });
    const long = await a.deliver(job, analysisOf('LONG', 'x'.repeat(30_000)), { 'ep-0.jpg': await jpeg() });
    expect(long.status).toBe(422);
    expect(long.body.errors[0].field).toContain('transcript');
    const huge = await a.deliver(job, analysisOf('HUGE'), { 'ep-0.jpg': await jpeg(5_000, 10) });
    expect(huge.body.code).toBe('bad_thumbnail');

    // The holder falls silent: once its lease ran out another key may start the job, and the first key may no longer deliver.
    aBeats.stop();
    const restarted = await waitFor(async () => {
      const r = await b.start(job);
      return r.status === 200 ? r : undefined;
    }, 20_000, 'the lease to run out');
    expect(restarted.body.status).toBe('ready');
    // The media is the new holder's to read now; the first key's link opens nothing more.
    expect((await fetch(restarted.body.files[0].url)).status).toBe(200);
    expect((await fetch(started.body.files[0].url)).status).toBe(404);
    expect((await a.deliver(job, analysisOf('LATE'), { 'ep-0.jpg': await jpeg() })).body.code).toBe('job_not_held');
    const done = await b.deliver(job, analysisOf('BY B'), { 'ep-0.jpg': await jpeg() });
    expect(done.body).toEqual({ status: 'committed' });
    const t = await settledTask(s, task, 30_000);
    expect(t).toMatchObject({ status: 'completed', worker: 'fb' });
    expect(s.vidx.store.jobs.get(job)).toMatchObject({ worker: 'fb', holder_key: expect.stringMatching(/^key_/) });
  }, 90_000);

  it('never hands an analysis a worker delivered to another owner of the same bytes', async () => {
    const beats = b.keepBeating();
    beating.push(beats);
    const user = await s.newKey('user');
    const task = await analyze(user);
    // Not answered from the cache: it needs a job of its own, which waits for a worker.
    const job = await jobOf(task);
    expect((await s.call('GET', `/tasks/${task}`, { key: user })).body.status).not.toBe('completed');
    expect((await b.start(job)).body.status).toBe('ready');
    expect((await b.deliver(job, analysisOf('FOR THE USER'), { 'ep-0.jpg': await jpeg() })).body.status).toBe('committed');
    const t = await settledTask(s, task, 30_000);
    expect(t.status).toBe('completed');
    expect(t.result).toMatchObject({ reused: false, title: 'FOR THE USER' });
    // Its thumbnail, in the job's own folder, is served to its owner like any analysis thumbnail.
    const thumb = await fetch((t.result as { episodic_summary: { thumbnail: string }[] }).episodic_summary[0]!.thumbnail);
    expect(thumb.status).toBe(200);
    expect(Buffer.from(await thumb.arrayBuffer()).subarray(0, 3).toString('hex')).toBe('ffd8ff');
  }, 60_000);
});
