import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clock } from '../../src/cli/present.js';
import { progressBar } from '../../src/cli/wait.js';
import { runCli } from '../support/cli.js';
import { fakeAnalyze } from '../support/fake-tasks.js';
import { ADMIN_KEY, startTestServer, type TestServer } from '../support/server.js';

describe('vidx tasks: show, retry, delete (pretend analysis)', () => {
  let s: TestServer;
  let file: string;
  beforeAll(async () => {
    s = await startTestServer({ registerTasks: fakeAnalyze().register });
    file = join(s.mediaDir, 'clip.mp4');
    writeFileSync(file, 'not really a video; the pretend task never reads it');
  });
  afterAll(() => s.close());

  const cli = (args: string[]) => runCli([...args, '--url', s.url, '--key', ADMIN_KEY]);

  it('reports a failed task with exit 1, retries it until it completes, then deletes it', async () => {
    const failed = await cli(['analyze', file, '--path', '--title', 'fail-once', '--json', '-q']);
    expect(failed.code).toBe(1);
    const task = JSON.parse(failed.stdout);
    expect(task.status).toBe('failed');
    expect(failed.stderr).toContain(`task ${task.id} failed: pretend failure on run 1`);

    const shown = await cli(['tasks', 'show', task.id]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/status {4}failed/);
    expect(shown.stdout).toMatch(/error {5}pretend failure on run 1/);

    const retried = await cli(['tasks', 'retry', task.id, '--wait']);
    expect(retried.code, retried.stderr).toBe(0);
    expect(retried.stdout).toMatch(/status {4}completed/);
    expect(retried.stdout).toMatch(/attempts {2}2/);
    expect(retried.stderr).toMatch(/100% {2}completed: done/);

    const again = await cli(['tasks', 'retry', task.id]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/HTTP 409 conflict/);

    const deleted = await cli(['tasks', 'delete', task.id, '--json']);
    expect(JSON.parse(deleted.stdout).id).toBe(task.id);
    const gone = await cli(['tasks', 'show', task.id]);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/HTTP 404 not_found/);
  });

  it('lists with filters and paging', async () => {
    for (let i = 0; i < 3; i++) await cli(['analyze', file, '--path', '--no-wait']);
    const page = await cli(['tasks', 'list', '--status', 'completed', '--limit', '2', '--json']);
    const body = JSON.parse(page.stdout);
    expect(body.limit).toBe(2);
    expect(body.tasks.length).toBeLessThanOrEqual(2);
    const text = await cli(['tasks', '--limit', '1']);
    expect(text.stdout).toMatch(/\(1 of 3; use --offset and --limit for more\)/);
    const bad = await cli(['tasks', 'list', '--limit', '500']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--limit must be an integer from 1 to 100/);
  });
});

describe('progress and time formatting', () => {
  it('draws a bar with percentage, status, stage and elapsed seconds', () => {
    expect(progressBar({ status: 'running', progress: 0.5, stage: 'on-screen text' }, 12_400)).toBe('[############------------]  50%  running: on-screen text  12s');
    expect(progressBar({ status: 'queued', progress: 0, stage: null }, 0)).toBe('[------------------------]   0%  queued  0s');
  });

  it('formats clock times', () => {
    expect(clock(0)).toBe('0:00');
    expect(clock(75.9)).toBe('1:15');
    expect(clock(3725)).toBe('1:02:05');
  });
});
