import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeAnalyze } from '../support/fake-tasks.js';
import { startTestServer, waitFor, type TestServer } from '../support/server.js';
import { mcpClient, textOf } from './clients.js';

describe('MCP tools that wait for a task (pretend analysis, real engine and HTTP)', () => {
  let s: TestServer;
  let file: string;
  const fake = fakeAnalyze();

  beforeAll(async () => {
    s = await startTestServer({ registerTasks: fake.register });
    file = join(s.mediaDir, 'clip.mp4');
    writeFileSync(file, 'pretend video');
  });
  afterAll(() => s.close());

  it('reports a task that fails while waited for as a tool error with its reason', async () => {
    const client = await mcpClient('http', s.url, s.adminKey);
    try {
      const r = await client.callTool({ name: 'analyze_video', arguments: { path: file, title: 'fail', wait_seconds: 60 } });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/^task \S+ failed: pretend failure on run 1$/);
      // The failed task is readable by get_task, reason included.
      const id = textOf(r).split(' ')[1];
      const again = await client.callTool({ name: 'get_task', arguments: { task_id: id } });
      expect(JSON.parse(textOf(again))).toMatchObject({ task_id: id, status: 'failed', error: { message: 'pretend failure on run 1', code: 'internal', retryable: true } });
    } finally {
      await client.close();
    }
  });

  it('ends a wait when the server stops, answering with the task still running', async () => {
    const client = await mcpClient('http', s.url, s.adminKey);
    const answer = client.callTool({ name: 'analyze_video', arguments: { path: file, title: 'block', wait_seconds: 600 } }, undefined, { timeout: 120_000 });
    await waitFor(async () => ((await s.call('GET', '/tasks?status=running')).body.total === 1) || undefined, 30_000, 'the blocking task to run');
    await s.close({ keepData: true });
    const r = await answer;
    expect(r.isError, textOf(r)).toBeFalsy();
    expect(JSON.parse(textOf(r))).toMatchObject({ status: 'running', stage: 'working' });
    await client.close();
    // Reopened for afterAll.
    s = await startTestServer({ dataDir: s.dataDir, registerTasks: fake.register });
  });
});
