import { randomUUID } from 'node:crypto';
import { readdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeAnalyze } from '../support/fake-tasks.js';
import { startTestServer, waitFor, type TestServer } from '../support/server.js';

/** An /analyze multipart body naming `clip.mp4` (the fake task's `title` steers it), with `files` parts of that name. */
function clipForm(files: number, title = 'ok'): FormData {
  const fd = new FormData();
  fd.set('body', JSON.stringify({ video: { content: 'clip.mp4', title } }));
  for (let i = 0; i < files; i++) fd.append(`f${i}`, new Blob([Buffer.alloc(100, 1)]), 'clip.mp4');
  return fd;
}

/** Sends the start of a body announced as 100,000 bytes to 127.0.0.1, then breaks the connection off. */
function breakOff(s: TestServer, type: string, start: string): Promise<void> {
  const { port } = new URL(s.url);
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/analyze', headers: { 'x-api-key': s.adminKey, 'content-type': type, 'content-length': '100000' } });
    req.on('error', () => resolve());
    req.on('close', () => resolve());
    req.write(start);
    setTimeout(() => req.destroy(), 200);
  });
}

/**
 * Issue 32.6: uploads a killed server was receiving are removed at the next start (those a task holds stay),
 * a body the client breaks off is one quiet log line, and more file parts than allowed are refused by name.
 */
describe('uploads: leftovers, broken-off bodies, too many parts', () => {
  let s: TestServer;
  const lines: Array<Record<string, unknown>> = [];
  const uploads = () => readdirSync(join(s.dataDir, 'uploads')).sort();
  beforeAll(async () => {
    s = await startTestServer({ registerTasks: fakeAnalyze().register, logger: (msg, fields) => lines.push({ msg, ...fields }) });
  });
  afterAll(() => s.close());

  it('removes at start the upload files no task holds, and keeps the one a queued task holds', async () => {
    const first = await startTestServer({ registerTasks: fakeAnalyze().register });
    const r = await first.call('POST', '/analyze', { body: clipForm(1, 'block') });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    const folder = join(first.dataDir, 'uploads');
    const held = readdirSync(folder);
    expect(held).toHaveLength(1);
    await first.close({ keepData: true });
    // What kill -9 in the middle of an upload leaves: a partial file no task names.
    writeFileSync(join(folder, `${randomUUID()}.upload`), 'partial');
    writeFileSync(join(folder, 'notes.txt'), 'not an upload');
    const again = await startTestServer({ dataDir: first.dataDir, registerTasks: fakeAnalyze().register });
    try {
      expect(readdirSync(folder).sort()).toEqual([...held, 'notes.txt'].sort());
      const task = (await again.call('GET', `/tasks/${r.body.task_id}`)).body;
      expect(['queued', 'running']).toContain(task.status);
    } finally {
      await again.close();
    }
  });

  it('logs a body the client broke off as one line without a stack, never a 500, and keeps no partial file', async () => {
    const before = lines.length;
    await breakOff(s, 'application/json', '{"video":{"path":');
    await breakOff(s, 'multipart/form-data; boundary=b',
      '--b\r\ncontent-disposition: form-data; name="body"\r\n\r\n{"video":{"content":"a.mp4"}}\r\n--b\r\ncontent-disposition: form-data; name="f"; filename="a.mp4"\r\n\r\nxxxxxxxx');
    const said = await waitFor(() => {
      const mine = lines.slice(before);
      return mine.filter((l) => l.msg === 'request').length >= 2 ? mine : undefined;
    }, 5000, 'two request lines');
    await new Promise((r) => setTimeout(r, 200));
    const after = lines.slice(before);
    expect(after.length, JSON.stringify(after)).toBe(2);
    for (const line of said) {
      expect(line).toMatchObject({ msg: 'request', path: '/analyze', aborted: true });
      expect(line.status).not.toBe(500);
      expect(JSON.stringify(line)).not.toMatch(/stack|unhandled/);
    }
    expect(uploads()).toEqual([]);
  });

  it('refuses more file parts or fields than allowed with a 413 naming the limit, storing nothing', async () => {
    const many = await s.call('POST', '/analyze', { body: clipForm(40) });
    expect(many.status).toBe(413);
    expect(many.body.code).toBe('payload_too_large');
    expect(many.body.detail).toMatch(/more than 16 file parts; a request may carry at most 16/);
    const fields = new FormData();
    fields.set('body', JSON.stringify({ query: 'x', collection: 'none' }));
    for (let i = 0; i < 20; i++) fields.append(`x${i}`, 'y');
    const manyFields = await s.call('POST', '/search', { body: fields });
    expect(manyFields.status).toBe(413);
    expect(manyFields.body.detail).toMatch(/more than 16 fields/);
    expect(uploads()).toEqual([]);
    // Up to the limit is fine (all but the named one are dropped).
    const ok = await s.call('POST', '/analyze', { body: clipForm(16) });
    expect(ok.status, JSON.stringify(ok.body)).toBe(202);
  });
});
