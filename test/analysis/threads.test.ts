import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMainThread, threadId } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANALYSIS_NICE } from '../../src/services/threads/priority.js';
import { ON_THREADS, settledTask, startTestServer, waitFor, type TestServer } from '../support/server.js';

/** A test pattern with a tone, made with plain ffmpeg (the server's file-access rule covers its own tools). */
function makeVideo(file: string, seconds: number): void {
  execFileSync('ffmpeg', [
    '-hide_banner', '-loglevel', 'error', '-y',
    '-f', 'lavfi', '-i', `testsrc2=size=320x180:rate=10:duration=${seconds}`,
    '-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`,
    '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', '-shortest', file,
  ]);
}

describe('analysis in threads', () => {
  let s: TestServer;
  let short: string;
  let long: string;
  let other: string;

  beforeAll(async () => {
    // The production default (test servers analyse inline unless they ask, see test/support/server.ts).
    s = await startTestServer({ env: { ...ON_THREADS } });
    short = join(s.mediaDir, 'short.mp4');
    long = join(s.mediaDir, 'long.mp4');
    makeVideo(short, 4);
    makeVideo(long, 90);
    // Another file, so the last task analyses again instead of reusing the cached analysis of `short`.
    other = join(s.mediaDir, 'other.mp4');
    makeVideo(other, 5);
    writeFileSync(join(s.mediaDir, 'notes.mp4'), 'these are notes, not a video\n'.repeat(100));
    expect((await s.call('POST', '/collections', { json: { collection_id: 'w', name: 'w' } })).status).toBe(201);
  }, 120_000);

  afterAll(async () => {
    await s?.close();
  });

  async function index(path: string, mediaId: string): Promise<string> {
    const r = await s.call('POST', '/index', { form: { collection: 'w', video: { path, media_id: mediaId } } });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    return r.body.task_id as string;
  }
  const settled = (id: string) => settledTask(s, id);

  it('indexes in a thread of its own, leaving this one free', async () => {
    expect(isMainThread).toBe(true);
    const task = await settled(await index(short, 'short'));
    expect(task.status, task.error?.message).toBe('completed');
    const threads = s.vidx.analysisThreads.threads();
    expect(threads).toHaveLength(1);
    expect(threads[0].threadId).not.toBe(threadId);
    const analysis = (await s.call('GET', '/collections/w/items/short/analysis')).body;
    expect(analysis.video_duration).toBeGreaterThan(3.5);
    expect(analysis.episodes.length).toBeGreaterThan(0);
  });

  it('runs the analysis thread below the priority of the thread that answers requests', () => {
    // Linux keeps a nice value per thread (field 19 of /proc/<pid>/task/<tid>/stat).
    const nice = (stat: string) => Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
    const tasks = readdirSync('/proc/self/task').map((tid) => nice(readFileSync(`/proc/self/task/${tid}/stat`, 'utf8')));
    expect(nice(readFileSync('/proc/self/stat', 'utf8'))).toBe(0);
    expect(tasks).toContain(ANALYSIS_NICE);
  });

  it('keeps the media errors of the pipeline, with their reasons', async () => {
    const task = await settled(await index(join(s.mediaDir, 'notes.mp4'), 'notes'));
    expect(task.status).toBe('failed');
    expect(task.error?.message).toMatch(/notes\.mp4/);
    expect(task.error?.message).not.toMatch(/analysis thread/);
  });

  it('fails the task clearly when its thread dies, and the next task gets a new thread', async () => {
    const id = await index(long, 'long');
    const [thread] = await waitFor(async () => {
      const t = (await s.call('GET', `/tasks/${id}`)).body;
      const running = s.vidx.analysisThreads.threads();
      return t.status === 'running' && !['fetching', 'opening'].includes(t.stage) && running.length === 1 ? running : undefined;
    }, 60_000);
    await thread.terminate();
    const task = await settled(id);
    expect(task.status).toBe('failed');
    expect(task.error?.message).toMatch(/analysis thread stopped unexpectedly/);
    const again = await settled(await index(other, 'other'));
    expect(again.status, again.error?.message).toBe('completed');
    expect(s.vidx.analysisThreads.threads()).toHaveLength(1);
    expect(s.vidx.analysisThreads.threads()[0]).not.toBe(thread);
  });
});
