/**
 * A cancel always lands (issues 42 and 43): the tool processes of a cancelled analysis end at once, and a
 * thread too busy to hear the cancel (a long synchronous stretch) is ended after CANCEL_GRACE_MS and replaced.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileAccess } from '../../src/media/index.js';
import { MediaTools } from '../../src/media/binaries.js';
import { ModelRuntime } from '../../src/ml/runtime.js';
import { CANCEL_GRACE_MS, ThreadPool } from '../../src/services/threads/pool.js';
import type { WorkerSettings } from '../../src/services/threads/protocol.js';
import { srt } from '../support/subtitled-media.js';
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
  const settings: WorkerSettings = { modelsDir: join(dir, 'models'), mediaRoots: [media], dataDir: data, ownDirs: [data], tools: {}, modelAssets: {} };
  const models = new ModelRuntime({ modelsDir: settings.modelsDir, tools: new MediaTools({}, new FileAccess({ mediaRoots: [media], dataDir: data, ownDirs: [data] })) });
  const pool = new ThreadPool({ threads: 1, settings, models, label: 'analysis thread' });
  const input = (file: string) => ({ file: join(media, file), sourcePath: join(media, file), title: null, metadata: null, language: 'en' as const, thumbnailDir: join(data, 'thumbs') });

  beforeAll(async () => {
    mkdirSync(media, { recursive: true });
    mkdirSync(join(data, 'thumbs'), { recursive: true });
    const ffmpeg = (...args: string[]) => run('ffmpeg', ['-v', 'error', '-y', ...args]);
    await ffmpeg('-f', 'lavfi', '-i', 'testsrc2=s=1280x720:r=25', '-t', '120', '-c:v', 'libx264', '-preset', 'ultrafast', join(media, 'long.mp4'));
    // Thousands of subtitle lines over a short video: the summaries compare lines with lines for a long while.
    await ffmpeg('-f', 'lavfi', '-i', 'color=c=navy:s=320x180:r=5', '-t', '4', '-c:v', 'libx264', '-preset', 'ultrafast', join(media, 'wordy.mp4'));
    const words = ['budget', 'solar', 'garden', 'apple', 'river', 'station', 'coffee', 'window', 'letter', 'mountain'];
    const cues = Array.from({ length: 9000 }, (_, i): [number, number, string] => [i * 0.0004, i * 0.0004 + 0.0003, `${words[i % 10]} ${words[(i * 7) % 10]} line ${i} about the ${words[(i * 3) % 10]}`]);
    writeFileSync(join(media, 'wordy.srt'), srt(cues));
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

  it('is ended and replaced when it is too busy to hear the cancel', async () => {
    const stop = new AbortController();
    let stage = '';
    const job = pool.run('analyze_media', input('wordy.mp4'), { signal: stop.signal, progress: (_f, s) => (stage = s) });
    job.catch(() => {});
    await waitFor(() => (stage === 'episodes' || stage === 'summaries' ? true : undefined), 60_000, 'the summaries to start');
    const thread = pool.threads()[0];
    const t0 = performance.now();
    stop.abort(new DOMException('the task was deleted', 'AbortError'));
    await expect(job).rejects.toThrow(/deleted/);
    expect(performance.now() - t0).toBeLessThan(CANCEL_GRACE_MS + 3_000);
    expect(pool.threads()).not.toContain(thread);
    // The next job gets a new thread and runs.
    expect(await pool.run('clusters', { results: [], vectors: null, query: 'x', language: 'en', maxClusters: 8 })).toEqual([]);
  }, 120_000);
});
