import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../support/app.js';
import { settledTask, type TestServer } from '../support/server.js';
import { srt, textClip } from './media.js';

/**
 * Two servers in one process (as tests run them, and as a library user may): each keeps its own file-access
 * rule. A file one server's media roots hold is outside the other's, even where that other opens it on the
 * main thread (analysis inline, the cache key's sidecar fingerprints).
 */
describe('each server of a process keeps its own file-access rule', () => {
  let a: TestServer;
  let b: TestServer;

  beforeAll(async () => {
    // Inline analysis: the sidecar is read on the main thread, where both servers' rules once lived together.
    a = await startTestApp({ env: { VIDX_ANALYSIS_THREADS: '0' } });
    b = await startTestApp({ env: { VIDX_ANALYSIS_THREADS: '0' } });
    writeFileSync(join(b.mediaDir, 'diary.srt'), srt('the diary of the other server'));
    await textClip(join(a.mediaDir, 'clip.mp4'), 'GARDEN');
    // A's sidecar is a link into B's media root: inside B's rule, outside A's.
    symlinkSync(join(b.mediaDir, 'diary.srt'), join(a.mediaDir, 'clip.srt'));
  }, 120_000);
  afterAll(async () => {
    await a.close();
    await b.close();
  });

  it('does not read a sidecar that leads into another server’s media root', async () => {
    const r = await a.call('POST', '/analyze', { form: { video: { path: join(a.mediaDir, 'clip.mp4') } } });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    const t = await settledTask(a, r.body.task_id);
    expect(t.status, t.error?.message).toBe('completed');
    expect(JSON.stringify(t.result)).not.toMatch(/diary/);
    expect((t.result as { warnings: string[] }).warnings.join(' ')).toMatch(/clip\.srt leads outside the configured media roots/);
  });

  it('still reads the same subtitle for the server whose media root holds it', async () => {
    await textClip(join(b.mediaDir, 'diary.mp4'), 'KITCHEN');
    const r = await b.call('POST', '/analyze', { form: { video: { path: join(b.mediaDir, 'diary.mp4') } } });
    const t = await settledTask(b, r.body.task_id);
    expect(t.status, t.error?.message).toBe('completed');
    expect((t.result as { transcript_source: string }).transcript_source).toBe('sidecar');
    expect(JSON.stringify(t.result)).toMatch(/diary of the other server/);
  });
});
