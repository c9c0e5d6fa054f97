import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeAnalyze } from '../support/fake-tasks.js';
import { ADMIN_KEY, startTestServer, waitFor, type TestServer } from '../support/server.js';
import { spawnVidx } from '../support/spawn-server.js';

const video = (title: string) => ({ video: { url: 'http://127.0.0.1:9/v.mp4', title } });

describe('task engine through the API', () => {
  let s: TestServer;
  const fake = fakeAnalyze();
  let user: string;
  let other: string;
  beforeAll(async () => {
    s = await startTestServer({ registerTasks: fake.register });
    user = await s.newKey();
    other = await s.newKey();
  });
  afterAll(() => s.close());

  const create = async (title: string, key = user) => {
    const r = await s.call('POST', '/analyze', { key, form: video(title) });
    expect(r.status).toBe(202);
    return r.body.task_id as string;
  };
  const task = async (id: string, key = user) => (await s.call('GET', `/tasks/${id}`, { key })).body;
  const until = (id: string, status: string, key = user) =>
    waitFor(async () => ((await task(id, key)).status === status ? true : undefined), 10_000, `task ${id} ${status}`);

  it('runs a task queued → running → completed with progress, stage, result and timestamps', async () => {
    const gated = await create('gate');
    await until(gated, 'running');
    const running = await task(gated);
    expect(running).toMatchObject({ status: 'running', stage: 'working', progress: 0.25, result: null, attempts: 1 });
    const queued = await create('ok');
    expect((await task(queued)).status).toBe('queued');
    fake.release();
    await until(queued, 'completed');
    const done = await task(queued);
    expect(done).toMatchObject({ id: queued, task_id: queued, endpoint: '/analyze', status: 'completed', progress: 1, error: null });
    expect(done.result.echo.video.title).toBe('ok');
    expect(done.data.video).toEqual({ path: null, url: 'http://127.0.0.1:9/v.mp4', content: null, media_id: expect.any(String), title: 'ok', additional_metadata: null });
    expect(Date.parse(done.finished_at)).toBeGreaterThanOrEqual(Date.parse(done.started_at));
  });

  it('fails with the reason, retries a failed task only, and completes on the retry', async () => {
    const id = await create('fail-once');
    await until(id, 'failed');
    const failed = await task(id);
    expect(failed.error?.message).toBe('pretend failure on run 1');
    expect(failed.result).toBeNull();
    const retried = await s.call('POST', `/tasks/${id}/retry`, { key: user });
    expect(retried.status).toBe(202);
    expect(['queued', 'running', 'completed']).toContain(retried.body.status);
    await until(id, 'completed');
    expect((await task(id)).attempts).toBe(2);
    const again = await s.call('POST', `/tasks/${id}/retry`, { key: user });
    expect(again.status).toBe(409);
    expect(again.body.detail).toMatch(/only a failed task/);
  });

  it('cancels a running task on delete and never leaves it half-done', async () => {
    const id = await create('block');
    await until(id, 'running');
    const del = await s.call('DELETE', `/tasks/${id}`, { key: user });
    expect(del.status).toBe(200);
    expect(del.body.id).toBe(id);
    expect(fake.aborted.has(id)).toBe(true);
    expect((await s.call('GET', `/tasks/${id}`, { key: user })).status).toBe(404);
    const next = await create('ok');
    await until(next, 'completed');
  });

  it('deletes a queued task before it runs', async () => {
    const blocker = await create('block');
    await until(blocker, 'running');
    const queued = await create('ok');
    expect((await s.call('DELETE', `/tasks/${queued}`, { key: user })).status).toBe(200);
    await s.call('DELETE', `/tasks/${blocker}`, { key: user });
    await s.vidx.engine.idle();
    expect(fake.runs.has(queued)).toBe(false);
  });

  it('lists with filters and paging, counts per status, and scopes everything to the owner', async () => {
    const mine = await create('ok', other);
    await until(mine, 'completed', other);
    const failing = await create('fail', other);
    await until(failing, 'failed', other);
    const list = await s.call('GET', '/tasks?status=completed&endpoint=/analyze&limit=1', { key: other });
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ total: 1, limit: 1, offset: 0 });
    expect(list.body.tasks[0].id).toBe(mine);
    // The endpoint filter takes the name with or without its leading slash.
    const bare = await s.call('GET', '/tasks?status=completed&endpoint=analyze&limit=1', { key: other });
    expect(bare.body).toMatchObject({ total: 1 });
    expect(bare.body.tasks[0].id).toBe(mine);
    const count = await s.call('GET', '/tasks/count', { key: other });
    expect(count.body).toEqual({ queued: 0, running: 0, completed: 1, failed: 1, total: 2 });
    const page2 = await s.call('GET', '/tasks?limit=1&offset=1', { key: other });
    expect(page2.body.tasks).toHaveLength(1);
    expect(page2.body.total).toBe(2);
    expect((await s.call('GET', `/tasks/${mine}`, { key: user })).status).toBe(404);
    expect((await s.call('DELETE', `/tasks/${mine}`, { key: user })).status).toBe(404);
    expect((await s.call('POST', `/tasks/${failing}/retry`, { key: user })).status).toBe(404);
    expect((await s.call('GET', `/tasks/${mine}`)).status).toBe(200);
    const adminCount = (await s.call('GET', '/tasks/count')).body;
    expect(adminCount.total).toBeGreaterThan(2);
    for (const q of ['status=done', 'limit=0', 'limit=1000', 'offset=-1']) {
      expect((await s.call('GET', `/tasks?${q}`, { key: other })).status, q).toBe(422);
    }
    expect((await s.call('GET', '/tasks/does-not-exist', { key: other })).status).toBe(404);
  });
});

describe('tasks across a kill -9 and a restart', () => {
  it('keeps acknowledged writes and requeues the task that was running', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'vidx-crash-'));
    const { child, url, exited } = await spawnVidx('test/support/child-server.ts', { VIDX_DATA_DIR: dataDir, VIDX_ADMIN_KEY: ADMIN_KEY, VIDX_MEDIA_ROOTS: dataDir });
    const h = { 'x-api-key': ADMIN_KEY };
    const post = (path: string, init: RequestInit) => fetch(`${url}${path}`, { method: 'POST', ...init, headers: { ...h, ...init.headers } });
    expect((await post('/collections', { body: JSON.stringify({ collection_id: 'kept', name: 'Kept' }), headers: { 'content-type': 'application/json' } })).status).toBe(201);
    const hook = await post('/webhooks', { body: JSON.stringify({ url: 'http://127.0.0.1:9/hook' }), headers: { 'content-type': 'application/json' } });
    expect(hook.status).toBe(201);
    const running = (await (await post('/analyze', { body: new URLSearchParams({ body: JSON.stringify(video('block')) }) })).json()) as { task_id: string };
    const waiting = (await (await post('/analyze', { body: new URLSearchParams({ body: JSON.stringify(video('ok')) }) })).json()) as { task_id: string };
    await waitFor(async () => {
      const t = (await (await fetch(`${url}/tasks/${running.task_id}`, { headers: h })).json()) as { status: string };
      return t.status === 'running' ? true : undefined;
    });
    child.kill('SIGKILL');
    await exited;

    // A task the server died under three times is failed with a reason instead of looping.
    const db = new Database(join(dataDir, 'vidx.db'));
    db.prepare(
      `INSERT INTO tasks (id, owner, kind, status, data, attempts, created_at, updated_at) VALUES ('doomed', 'key_env_admin', 'analyze', 'running', ?, 3, ?, ?)`,
    ).run(JSON.stringify(video('ok')), new Date().toISOString(), new Date().toISOString());
    db.close();

    const s = await startTestServer({ dataDir, registerTasks: (e) => e.register('analyze', async () => ({ resumed: true })) });
    try {
      expect((await s.call('GET', '/collections/kept')).body.name).toBe('Kept');
      expect((await s.call('GET', '/webhooks')).body.webhooks).toHaveLength(1);
      for (const id of [running.task_id, waiting.task_id]) {
        const t = await waitFor(async () => {
          const body = (await s.call('GET', `/tasks/${id}`)).body;
          return body.status === 'completed' ? body : undefined;
        });
        expect(t.result).toEqual({ resumed: true });
      }
      expect((await s.call('GET', `/tasks/${running.task_id}`)).body.attempts).toBe(2);
      expect((await s.call('GET', `/tasks/${waiting.task_id}`)).body.attempts).toBe(1);
      const doomed = (await s.call('GET', '/tasks/doomed')).body;
      expect(doomed.status).toBe('failed');
      expect(doomed.error?.message).toMatch(/interrupted 3 times/);
    } finally {
      await s.close();
    }
  });
});

describe('DELETE of a task whose step does not stop', () => {
  it('lands within its wait, answers the task failed as cancelled, and a restart does not run it again', async () => {
    const fake = fakeAnalyze();
    let s = await startTestServer({ registerTasks: fake.register });
    const dataDir = s.dataDir;
    try {
      const r = await s.call('POST', '/analyze', { form: video('deaf') });
      const id = r.body.task_id as string;
      await waitFor(async () => ((await s.call('GET', `/tasks/${id}`)).body.status === 'running' ? true : undefined), 10_000, 'running');
      const del = await s.call('DELETE', `/tasks/${id}`);
      expect(del.status, JSON.stringify(del.body)).toBe(200);
      expect(del.body).toMatchObject({ id, status: 'failed', error: { code: 'cancelled', retryable: false } });
      expect((await s.call('GET', `/tasks/${id}`)).status).toBe(404);
      // The step comes back later: nothing of it lands.
      fake.release();
      await s.vidx.engine.idle();
      expect((await s.call('GET', `/tasks/${id}`)).status).toBe(404);
      await s.close({ keepData: true });
      s = await startTestServer({ dataDir, registerTasks: fake.register });
      await s.vidx.engine.idle();
      expect(fake.runs.get(id)).toBe(1);
      expect((await s.call('GET', `/tasks/${id}`)).status).toBe(404);
    } finally {
      await s.close();
    }
  }, 60_000);
});

