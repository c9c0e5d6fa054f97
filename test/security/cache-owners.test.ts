import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../support/app.js';
import { settledTask, type TestServer } from '../support/server.js';
import { srt, textClip } from './media.js';

/**
 * What held in issue 21, kept under test: the analysis cache shares work between identical files, but a
 * sidecar of one owner (its text, or only its name in a warning) never reaches another owner's analysis
 * of the same bytes.
 */
describe('content-identical files of two owners share nothing private through the analysis cache', () => {
  let s: TestServer;
  let outside: string;
  beforeAll(async () => {
    s = await startTestApp();
    outside = mkdtempSync(join(tmpdir(), 'vidx-outside-'));
    await textClip(join(s.mediaDir, 'alice', 'alice-divorce-call.mp4'), 'GARDEN');
    mkdirSync(join(s.mediaDir, 'bob'), { recursive: true });
    mkdirSync(join(s.mediaDir, 'carol'), { recursive: true });
    copyFileSync(join(s.mediaDir, 'alice', 'alice-divorce-call.mp4'), join(s.mediaDir, 'bob', 'holiday.mp4'));
    copyFileSync(join(s.mediaDir, 'alice', 'alice-divorce-call.mp4'), join(s.mediaDir, 'carol', 'alice-divorce-call.mp4'));
    writeFileSync(join(s.mediaDir, 'alice', 'alice-divorce-call.srt'), srt('the vault code is four seven one one'));
    // Carol's copy has the same name, and a sidecar vidx will not read (it leads out of the roots).
    writeFileSync(join(outside, 'x.srt'), srt('nothing'));
    symlinkSync(join(outside, 'x.srt'), join(s.mediaDir, 'carol', 'alice-divorce-call.srt'));
  }, 60_000);
  afterAll(async () => {
    await s.close();
    rmSync(outside, { recursive: true, force: true });
  });

  const analysis = async (key: string, path: string) => {
    const r = await s.call('POST', '/analyze', { key, form: { video: { path } } });
    const t = await settledTask(s, r.body.task_id);
    expect(t.status, t.error?.message).toBe('completed');
    return JSON.stringify(t.result);
  };

  it('keeps one owner’s sidecar text and file names out of the other owners’ analyses', async () => {
    const [alice, bob, carol] = [await s.newKey(), await s.newKey(), await s.newKey()];
    const carolsFirst = await analysis(carol, join(s.mediaDir, 'carol', 'alice-divorce-call.mp4'));
    expect(carolsFirst).toMatch(/alice-divorce-call\.srt leads outside/);
    const alices = await analysis(alice, join(s.mediaDir, 'alice', 'alice-divorce-call.mp4'));
    expect(alices).toMatch(/vault code/);
    const bobs = await analysis(bob, join(s.mediaDir, 'bob', 'holiday.mp4'));
    expect(bobs).not.toMatch(/vault|alice|divorce/i);
  });
});
