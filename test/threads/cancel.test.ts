/**
 * A cancel always lands (issues 42 and 43): the tool processes of a cancelled analysis end at once, and a
 * thread too busy to hear the cancel (a long synchronous stretch) is ended after CANCEL_GRACE_MS and replaced.
 * The busy thread is a small entry of the tests' own: the pool's ending of it is what is tested.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileAccess } from '../../src/media/index.js';
import { MediaTools } from '../../src/media/binaries.js';
import { ModelRuntime } from '../../src/ml/runtime.js';
import { ThreadPool } from '../../src/services/threads/pool.js';
import type { ThreadSettings } from '../../src/services/threads/protocol.js';
import { waitFor } from '../support/server.js';

const run = promisify(execFile);
/** Whether a process still runs: a killed one its parent has not reaped yet (state Z) has ended. */
const alive = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
  } catch {
    return false;
  }
};

describe('a cancelled analysis thread', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vidx-cancel-'));
  const media = join(dir, 'media');
  const data = join(dir, 'data');
  const settings: ThreadSettings = { modelsDir: join(dir, 'models'), mediaRoots: [media], dataDir: data, ownDirs: [data], tools: {}, modelAssets: {} };
  const models = new ModelRuntime({ modelsDir: settings.modelsDir, tools: new MediaTools({}, new FileAccess({ mediaRoots: [media], dataDir: data, ownDirs: [data] })) });
  const pool = new ThreadPool({ threads: 1, settings, models, label: 'analysis thread' });
  const input = (file: string) => ({ file: join(media, file), sourcePath: join(media, file), title: null, metadata: null, language: 'en' as const, thumbnailDir: join(data, 'thumbs') });

  beforeAll(async () => {
    mkdirSync(media, { recursive: true });
    mkdirSync(join(data, 'thumbs'), { recursive: true });
    const ffmpeg = (...args: string[]) => run('ffmpeg', ['-v', 'error', '-y', ...args]);
    await ffmpeg('-f', 'lavfi', '-i', 'testsrc2=s=1280x720:r=25', '-t', '120', '-c:v', 'libx264', '-preset', 'ultrafast', join(media, 'long.mp4'));
  }, 120_000);
  afterAll(async () => {
    await pool.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('ends its ffmpeg at once', async () => {
    const stop = new AbortController();
    const job = pool.run('analyze_media', input('long.mp4'), { signal: stop.signal });
    job.catch(() => {});
    const pids = await waitFor(() => (pool.toolProcesses().length ? pool.toolProcesses() : undefined), 60_000, 'ffmpeg to run');
    stop.abort(new DOMException('the task was deleted', 'AbortError'));
    // Within the 5 s on a loaded machine; SIGKILL itself takes no time.
    await waitFor(() => (pids.every((pid) => !alive(pid)) ? true : undefined), 5_000, 'ffmpeg to end');
    await expect(job).rejects.toThrow();
  }, 120_000);

  it('is ended and replaced when it is too busy to hear the cancel, its tool process ended at once', async () => {
    // A thread that does its job in one synchronous stretch (test/support/busy-thread.mjs).
    const busy = new ThreadPool({ threads: 1, settings, models, label: 'busy thread', entry: new URL('../support/busy-thread.mjs', import.meta.url) });
    try {
      const stop = new AbortController();
      const job = busy.run('busy' as never, { ms: 60_000 } as never, { signal: stop.signal });
      job.catch(() => {});
      const [tool] = await waitFor(() => (busy.toolProcesses().length ? busy.toolProcesses() : undefined), 20_000, 'the busy thread to start its tool');
      const thread = busy.threads()[0];
      stop.abort(new DOMException('the task was deleted', 'AbortError'));
      await waitFor(() => (!alive(tool!) ? true : undefined), 5_000, 'the tool process to end');
      await expect(job).rejects.toThrow(/deleted/);
      expect(busy.threads()).not.toContain(thread);
      // The next job gets a new thread and runs.
      expect(await busy.run('busy' as never, { ms: 1 } as never)).toEqual({ spun: 1 });
    } finally {
      await busy.close();
    }
  }, 120_000);
});
