import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultTools } from '../../src/media/binaries.js';
import { makeVideo } from '../support/folder-media.js';
import { startTestApp } from '../support/app.js';
import { settledTask, type TestServer } from '../support/server.js';

/** A stand-in for a tool that writes one line per run into `log`, then runs the real tool. */
function loggingTool(dir: string, name: string, real: string, log: string): string {
  const file = join(dir, name);
  writeFileSync(file, `#!/bin/sh\necho "${name}" >> '${log}'\nexec '${real}' "$@"\n`);
  chmodSync(file, 0o755);
  return file;
}

function runs(log: string): string[] {
  return existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : [];
}

/**
 * Issue 33.3: tool paths live on each server's own objects, not in module globals. Two servers in one
 * process, each with its own FFMPEG_PATH and FFPROBE_PATH, each run their own tools.
 */
describe('two servers in one process with different tool paths', () => {
  const servers: Record<'a' | 'b', TestServer> = {} as Record<'a' | 'b', TestServer>;
  const logs: Record<'a' | 'b', string> = { a: '', b: '' };
  const dirs: string[] = [];

  beforeAll(async () => {
    for (const name of ['a', 'b'] as const) {
      const dir = mkdtempSync(join(tmpdir(), `vidx-tools-${name}-`));
      dirs.push(dir);
      logs[name] = join(dir, 'runs.log');
      const ffmpeg = loggingTool(dir, 'ffmpeg', defaultTools.ffmpeg(), logs[name]);
      const ffprobe = loggingTool(dir, 'ffprobe', defaultTools.ffprobe(), logs[name]);
      servers[name] = await startTestApp({ queryEmbedder: null, env: { FFMPEG_PATH: ffmpeg, FFPROBE_PATH: ffprobe } });
    }
  }, 60_000);
  afterAll(async () => {
    for (const s of Object.values(servers)) await s?.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('each reports and runs its own ffmpeg and ffprobe', async () => {
    for (const s of Object.values(servers)) {
      const health = (await s.call('GET', '/health')).body as { tools: { ffmpeg: { source: string }; ffprobe: { source: string } } };
      expect(health.tools.ffmpeg.source).toBe('env');
      expect(health.tools.ffprobe.source).toBe('env');
    }
    const before = { a: runs(logs.a).length, b: runs(logs.b).length };
    const a = servers.a;
    await a.call('POST', '/collections', { json: { collection_id: 'clips', name: 'Clips' } });
    await makeVideo(join(a.mediaDir, 'harbour.mp4'), 'HARBOUR');
    const task = await a.call('POST', '/index', { form: { collection: 'clips', video: { path: join(a.mediaDir, 'harbour.mp4'), media_id: 'harbour' } } });
    expect((await settledTask(a, task.body.task_id as string)).status).toBe('completed');
    const ran = runs(logs.a).slice(before.a);
    expect(ran).toContain('ffprobe');
    expect(ran).toContain('ffmpeg');
    // The other server's tools were not used for server a's analysis.
    expect(runs(logs.b).length).toBe(before.b);
  }, 120_000);
});
