import { appendFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../support/app.js';
import { waitFor, type TestServer } from '../support/server.js';

describe('a scan does not wait for a file that is not media', () => {
  let s: TestServer;
  let base: string;
  let writer: NodeJS.Timeout | undefined;

  beforeAll(async () => {
    base = realpathSync(mkdtempSync(join(tmpdir(), 'vidx-log-')));
    mkdirSync(join(base, 'media'));
    writeFileSync(join(base, 'media', 'app.log'), '2026-11-27 09:00:00 INFO started\n');
    // The log grows for the whole test, so it never holds still.
    writer = setInterval(() => appendFileSync(join(base, 'media', 'app.log'), `${new Date().toISOString()} INFO tick\n`), 200);
    s = await startTestApp({ env: { VIDX_MEDIA_ROOTS: join(base, 'media') } });
    await s.call('POST', '/collections', { json: { collection_id: 'logs', name: 'Logs' } });
  }, 60_000);
  afterAll(async () => {
    clearInterval(writer);
    await s?.close();
    rmSync(base, { recursive: true, force: true });
  });

  it('skips a growing log at once', async () => {
    const started = Date.now();
    const r = await s.call('POST', '/collections/logs/folders', { json: { path: join(base, 'media'), watch: false } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const t = await waitFor(async () => {
      const task = (await s.call('GET', `/tasks/${r.body.scan_task_id}`)).body;
      return task.status === 'completed' || task.status === 'failed' ? task : undefined;
    }, 30_000, 'scan');
    expect(t.status, t.error?.message).toBe('completed');
    expect(t.result.skipped_files).toEqual([{ path: 'app.log', reason: expect.stringMatching(/^not a media file/), code: 'not_media' }]);
    expect(Date.now() - started).toBeLessThan(20_000);
  }, 60_000);
});
