/**
 * Issue 34: a local file's task step said "fetching the file". A file named by its path (or uploaded) is
 * opened where it lies: its first step is `opening` (the page says "opening the file"), never `fetching`,
 * which is kept for URLs. A real server on 127.0.0.1 indexes a real file; the stages the task engine writes
 * are read as it writes them (a look at GET /tasks could miss a step that lasts milliseconds).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeStage } from '../../src/services/task-steps.js';
import { makeVideo } from '../support/folder-media.js';
import { settledTask, startTestServer, type TestServer } from '../support/server.js';

describe('the first step of a local file', () => {
  let s: TestServer;
  const stages: string[] = [];

  beforeAll(async () => {
    s = await startTestServer();
    await s.call('POST', '/collections', { json: { collection_id: 'home', name: 'Home' } });
    await makeVideo(join(s.mediaDir, 'garden.mp4'), 'GARDEN', 1);
    const tasks = s.vidx.store.tasks;
    const write = tasks.setProgress.bind(tasks);
    tasks.setProgress = (...args: Parameters<typeof tasks.setProgress>) => {
      if (args[2]) stages.push(args[2]);
      return write(...args);
    };
  }, 120_000);
  afterAll(async () => {
    await s?.close();
  });

  it('is "opening", not "fetching", for a file named by its path', async () => {
    const r = await s.call('POST', '/index', { form: { collection: 'home', video: { path: join(s.mediaDir, 'garden.mp4') } } });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    const task = await settledTask(s, r.body.task_id);
    expect(task.status, task.error?.message).toBe('completed');
    expect(stages[0]).toBe('opening');
    expect(stages).not.toContain('fetching');
    // The API gives it as a code the page says in its language.
    expect(describeStage('opening', null).step).toEqual({ code: 'opening' });
  });
});
