/**
 * The production path: `npm start` runs the JavaScript that scripts/build-server.ts compiles into lib/,
 * with no TypeScript loader, and analyses run in a thread that loads compiled modules too. This starts
 * lib/main.js in its own process and indexes, analyses and searches a real video through it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../scripts/build-server.js';
import { makeVideo } from '../support/folder-media.js';
import { ADMIN_KEY, waitFor } from '../support/server.js';

describe('the compiled server (lib/, as npm start runs it)', () => {
  let base: string;
  let child: ChildProcess;
  let url = '';
  const call = async (method: string, path: string, json?: unknown) => {
    const res = await fetch(`${url}${path}`, { method, headers: { 'x-api-key': ADMIN_KEY, ...(json ? { 'content-type': 'application/json' } : {}) }, body: json ? JSON.stringify(json) : undefined });
    return { status: res.status, body: (await res.json()) as any };
  };

  beforeAll(async () => {
    await buildServer({ ifStale: true });
    base = realpathSync(mkdtempSync(join(tmpdir(), 'vidx-compiled-')));
    mkdirSync(join(base, 'media'));
    await makeVideo(join(base, 'media', 'garden.mp4'), 'GARDEN PARTY', 3);
    // Only what a user's shell would have: no tsx loader, threads on (the default).
    child = spawn(process.execPath, ['lib/main.js'], {
      env: { PATH: process.env.PATH ?? '', HOME: base, VIDX_HOST: '127.0.0.1', VIDX_PORT: '0', VIDX_DATA_DIR: join(base, 'data'), VIDX_MEDIA_ROOTS: join(base, 'media'), VIDX_ADMIN_KEY: ADMIN_KEY, VIDX_LOG: 'silent' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let banner = '';
    child.stderr!.on('data', (d: Buffer) => (banner += d));
    url = await waitFor(() => banner.match(/listening on (http:\/\/127\.0\.0\.1:\d+)/)?.[1], 30_000, `the banner (${banner})`);
  }, 120_000);
  afterAll(async () => {
    child?.kill('SIGTERM');
    rmSync(base, { recursive: true, force: true });
  });

  it('indexes in an analysis thread and finds the moment', async () => {
    expect((await call('GET', '/health')).body.analysis).toEqual({ threads: true });
    expect((await call('POST', '/collections', { collection_id: 'home', name: 'Home' })).status).toBe(201);
    const submitted = await call('POST', '/index', { collection: 'home', video: { path: join(base, 'media', 'garden.mp4'), media_id: 'garden' } });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(202);
    const task = await waitFor(async () => {
      const t = (await call('GET', `/tasks/${submitted.body.task_id}`)).body;
      return t.status === 'completed' || t.status === 'failed' ? t : undefined;
    }, 120_000, 'the index task');
    expect(task.status, JSON.stringify(task.error)).toBe('completed');
    const found = await call('POST', '/search', { query: 'garden party', collection: 'home' });
    expect(found.body.results[0]?.media_id).toBe('garden');
  }, 180_000);
});
