import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeAnalyze } from '../support/fake-tasks.js';
import { settledTask, startTestServer, waitFor, type TestServer } from '../support/server.js';
import { makeVideo } from '../support/folder-media.js';

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

/**
 * Issue 43.5: an upload is kept under the extension its content has (a video sent as `clip.html` is never served
 * as a page), and an upload a task can never use (not media) is removed when the task fails, not when it is deleted.
 */
describe('uploads: named by their content, refused ones removed at once', () => {
  let s: TestServer;
  const uploads = () => readdirSync(join(s.dataDir, 'uploads'));
  beforeAll(async () => {
    s = await startTestServer({ queryEmbedder: null });
    await s.call('POST', '/collections', { json: { collection_id: 'c', name: 'C' } });
  });
  afterAll(() => s.close());
  const upload = async (name: string, bytes: Buffer, mediaId: string) => {
    const fd = new FormData();
    fd.append('body', JSON.stringify({ collection: 'c', video: { content: name, media_id: mediaId } }));
    fd.append('file', new Blob([new Uint8Array(bytes)]), name);
    const r = await fetch(`${s.url}/index`, { method: 'POST', headers: { 'x-api-key': s.adminKey }, body: fd });
    expect(r.status).toBe(202);
    return settledTask(s, ((await r.json()) as { task_id: string }).task_id);
  };

  it('keeps a video sent as clip.html as media.mp4 and serves it as video/mp4', async () => {
    await makeVideo(join(s.mediaDir, 'clip.mp4'), 'Clip');
    const done = await upload('clip.html', readFileSync(join(s.mediaDir, 'clip.mp4')), 'clip');
    expect(done.status, done.error?.message).toBe('completed');
    const item = (await s.call('GET', '/collections/c/items/clip')).body;
    expect(new URL(item.src).pathname).toMatch(/\/media\.mp4$/);
    const served = await fetch(item.src);
    expect(served.headers.get('content-type')).toBe('video/mp4');
  }, 60_000);

  it('removes an upload that is not media as soon as its task fails', async () => {
    const failed = await upload('notes.mp4', Buffer.from('these are notes, not a video\n'.repeat(50)), 'notes');
    expect(failed.status).toBe('failed');
    expect(failed.error?.code).toBe('not_media');
    expect(uploads()).toEqual([]);
    // The task is still there to read, until it is deleted.
    expect((await s.call('GET', `/tasks/${failed.id as string}`)).status).toBe(200);
  }, 60_000);
});
