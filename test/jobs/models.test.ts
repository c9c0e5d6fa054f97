/**
 * Issue 27: a worker whose models are not the server's takes none of its jobs (it listens on the queue of
 * its own model set) and GET /workers says why; `vidx worker --pull-models` pulls the server's models from
 * the server itself, after which it takes them. The hub is a loopback stand-in serving fixture models.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeFixtureModels } from '../../scripts/make-fixture-models.js';
import { startFakeHub, type FakeHub } from '../support/fake-hub.js';
import { makeVideo } from '../support/folder-media.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { settledTask, startTestServer, waitFor, type TestServer } from '../support/server.js';
import { spawnWorker, type TestWorker } from '../support/worker.js';

describe('workers and the server’s models', () => {
  let tmp: string;
  let hub: FakeHub;
  let redis: TestRedis;
  let s: TestServer;
  let key: string;
  let manifest: string;
  const workers: TestWorker[] = [];

  beforeAll(async () => {
    tmp = mkdtempSync(join(process.cwd(), 'test', '.tmp', 'worker-models-'));
    const fixtures = await makeFixtureModels(join(tmp, 'hub'));
    manifest = fixtures.manifestPath;
    hub = await startFakeHub({ root: fixtures.hubDir });
    redis = await startRedis();
    s = await startTestServer({ env: { VIDX_MODELS_MANIFEST: manifest, VIDX_HUB_URL: hub.url, VIDX_QUEUE_URL: redis.url, VIDX_LOCAL_WORKERS: '0' } });
    const pulled = await settledTask(s, (await s.call('POST', '/models/tiny-e5/pull')).body.task_id, 60_000);
    expect(pulled.status, pulled.error?.message).toBe('completed');
    await makeVideo(join(s.mediaDir, 'clip.mp4'), 'MODELS', 2);
    await s.call('POST', '/collections', { json: { collection_id: 'home', name: 'Home' } });
    key = (await s.call('POST', '/keys', { json: { name: 'w', role: 'worker' } })).body.key;
  }, 180_000);
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await s?.close();
    await redis?.stop();
    await hub?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('gives no job to a worker without the server’s models, and says why', async () => {
    workers.push(await spawnWorker({ server: s.url, queue: redis.url, key, id: 'bare', env: { VIDX_MODELS_MANIFEST: manifest } }));
    const bare = await waitFor(async () => (await s.call('GET', '/workers')).body.workers.find((w: { id: string }) => w.id === 'bare'), 10_000, 'the worker');
    expect(bare).toMatchObject({ takes_jobs: false, reason: expect.stringContaining('text_embedding: the server has tiny-e5, this worker has none') });
    expect(bare.queue).not.toBe((await s.call('GET', '/workers')).body.queue.name);
    const r = await s.call('POST', '/index', { json: { collection: 'home', video: { path: join(s.mediaDir, 'clip.mp4') } } });
    await new Promise((res) => setTimeout(res, 3_000));
    expect((await s.call('GET', `/tasks/${r.body.task_id}`)).body.status).toBe('queued');
    expect((await s.call('GET', '/health', { key: null })).body.work.limit).toBe(0);

    // A worker that pulls the server's models from the server takes the job.
    const hubRequests = hub.requests.length;
    // One worker key is one worker: the second worker has a key of its own.
    const second = (await s.call('POST', '/keys', { json: { name: 'w2', role: 'worker' } })).body.key as string;
    workers.push(await spawnWorker({ server: s.url, queue: redis.url, key: second, id: 'pulled', env: { VIDX_MODELS_MANIFEST: manifest }, args: ['--pull-models'] }));
    const done = await settledTask(s, r.body.task_id, 120_000);
    expect(done).toMatchObject({ status: 'completed', worker: 'pulled' });
    const list = (await s.call('GET', '/workers')).body.workers as { id: string; takes_jobs: boolean; models: Record<string, { model?: string }> }[];
    expect(list.find((w) => w.id === 'pulled')).toMatchObject({ takes_jobs: true, models: { text_embedding: { available: true, model: 'tiny-e5' } } });
    // The models came from the server, not the hub.
    expect(hub.requests.length).toBe(hubRequests);
    expect(workers[1]!.output()).toContain('the server’s models are here');
  }, 240_000);
});
