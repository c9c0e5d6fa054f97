/**
 * Issue 27: `vidx keys create --worker` and how `vidx worker` refuses to start: no server given (2), a key
 * that is not a worker key (4), a server without a job queue (1). Issue 32: a worker key's id and cap.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { startTestServer, type TestServer } from '../support/server.js';

describe('vidx keys create --worker, vidx worker', () => {
  let s: TestServer;
  let dir: string;

  beforeAll(async () => {
    s = await startTestServer();
    dir = mkdtempSync(join(tmpdir(), 'vidx-cli-worker-'));
  });
  afterAll(async () => {
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('makes a worker key on the data dir', async () => {
    const r = await runCli(['keys', 'create', '--worker', '--json', '--data-dir', dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ name: 'worker', role: 'worker', key: expect.stringMatching(/^vidx_/) });
    const both = await runCli(['keys', 'create', '--worker', '--admin', '--data-dir', dir]);
    expect(both.code).toBe(2);
  });

  it('fixes a worker key to a worker id and a cap when asked, and refuses a reserved id or a cap out of range', async () => {
    const r = await runCli(['keys', 'create', '--worker', '--name', 'gpu', '--worker-id', 'gpu-1', '--max-concurrency', '16', '--json', '--data-dir', dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ name: 'gpu', role: 'worker', worker_id: 'gpu-1', max_concurrency: 16 });
    const list = await runCli(['keys', 'list', '--data-dir', dir]);
    expect(list.stdout).toMatch(/gpu\t.*worker gpu-1, at most 16 jobs/);
    const reserved = await runCli(['keys', 'create', '--worker', '--worker-id', 'local', '--data-dir', dir]);
    expect(reserved.code).toBe(1);
    expect(reserved.stderr).toMatch(/reserved/);
    const taken = await runCli(['keys', 'create', '--worker', '--worker-id', 'gpu-1', '--data-dir', dir]);
    expect(taken.stderr).toMatch(/belongs to another key/);
    const cap = await runCli(['keys', 'create', '--worker', '--max-concurrency', '100', '--data-dir', dir]);
    expect(cap.code).toBe(1);
    expect(cap.stderr).toMatch(/max_concurrency/);
  });

  it('refuses to start without a server, with a key that is not a worker key, and against a server without a queue', async () => {
    const noServer = await runCli(['worker', '--queue', 'redis://127.0.0.1:1'], { VIDX_API_KEY: 'x' });
    expect(noServer.code).toBe(2);
    expect(noServer.stderr).toMatch(/--server URL/);
    const badQueue = await runCli(['worker', '--server', s.url, '--queue', 'http://nope'], { VIDX_API_KEY: 'x' });
    expect(badQueue.code).toBe(2);
    expect(badQueue.stderr).toMatch(/VIDX_QUEUE_URL must be a Redis URL/);
    const user = await s.newKey();
    const refused = await runCli(['worker', '--server', s.url, '--queue', 'redis://127.0.0.1:1', '--data-dir', join(dir, 'w')], { VIDX_API_KEY: user });
    expect(refused.code, refused.stderr).toBe(4);
    expect(refused.stderr).toMatch(/worker key/);
    const workerKey = (await s.call('POST', '/keys', { json: { name: 'w', role: 'worker' } })).body.key;
    const noQueue = await runCli(['worker', '--server', s.url, '--queue', 'redis://127.0.0.1:1', '--data-dir', join(dir, 'w')], { VIDX_API_KEY: workerKey });
    expect(noQueue.code, noQueue.stderr).toBe(1);
    expect(noQueue.stderr).toMatch(/no job queue/);
  }, 60_000);
});
