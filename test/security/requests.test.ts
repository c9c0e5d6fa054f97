import { chmodSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { egressPolicy } from '../../src/media/egress.js';
import { runCli } from '../support/cli.js';
import { fakeAnalyze } from '../support/fake-tasks.js';
import { startReceiver } from '../support/receiver.js';
import { ADMIN_KEY, startTestServer, waitFor, type TestServer } from '../support/server.js';

describe('uploads: one limit per request, only the named file is stored', () => {
  let s: TestServer;
  let user: string;
  const fake = fakeAnalyze();
  const uploads = () => readdirSync(join(s.dataDir, 'uploads'));
  beforeAll(async () => {
    s = await startTestServer({ registerTasks: fake.register, env: { VIDX_MAX_UPLOAD_MB: '1' } });
    user = await s.newKey('user');
  });
  afterAll(() => s.close());

  it('refuses a file part the body does not name, before storing anything', async () => {
    const fd = new FormData();
    fd.set('body', JSON.stringify({ video: { content: 'clip.mp4' } }));
    fd.set('file', new Blob([Buffer.alloc(1000, 1)]), 'clip.mp4');
    fd.set('junk', new Blob([Buffer.alloc(300_000, 2)]), 'junk.bin');
    const r = await s.call('POST', '/analyze', { key: user, body: fd });
    expect(r.status).toBe(422);
    expect(r.body.detail).toMatch(/file part "junk\.bin" is not named by the body/);
    expect(uploads()).toEqual([]);
  });

  it('refuses file parts sent before the body that would name them', async () => {
    const fd = new FormData();
    fd.set('file', new Blob([Buffer.alloc(1000, 1)]), 'clip.mp4');
    fd.set('body', JSON.stringify({ video: { content: 'clip.mp4' } }));
    const r = await s.call('POST', '/analyze', { key: user, body: fd });
    expect(r.status).toBe(422);
    expect(r.body.detail).toMatch(/"body" field must come before the file parts/);
    expect(uploads()).toEqual([]);
  });

  it('counts all parts together against VIDX_MAX_UPLOAD_MB', async () => {
    const fd = new FormData();
    fd.set('body', JSON.stringify({ video: { content: 'b.mp4' } }));
    // Each part alone is under the 1 MiB limit; together they are over it.
    fd.append('a', new Blob([Buffer.alloc(700_000, 1)]), 'b.mp4');
    fd.append('b', new Blob([Buffer.alloc(700_000, 1)]), 'b.mp4');
    const r = await s.call('POST', '/analyze', { key: user, body: fd });
    expect(r.status).toBe(413);
    expect(r.body.detail).toMatch(/larger than the limit of 1048576 bytes \(VIDX_MAX_UPLOAD_MB counts all parts together\)/);
    expect(uploads()).toEqual([]);
  });

  it('takes no file where no field names one (search)', async () => {
    const fd = new FormData();
    fd.set('body', JSON.stringify({ query: 'x', collection: 'none' }));
    fd.set('file', new Blob([Buffer.alloc(10, 1)]), 'x.bin');
    const r = await s.call('POST', '/search', { key: user, body: fd });
    expect(r.status).toBe(422);
    expect(r.body.detail).toMatch(/file part "x\.bin" is not taken here/);
  });

  it('names an upload by its file name and never shows a server path in tasks, errors or webhooks', async () => {
    const rx = await startReceiver();
    await s.call('POST', '/webhooks', { key: user, json: { url: `${rx.url}/hook` } });
    const fd = new FormData();
    fd.set('body', JSON.stringify({ video: { content: 'holiday.mp4' } }));
    fd.set('file', new Blob([Buffer.alloc(2000, 3)]), 'holiday.mp4');
    const r = await s.call('POST', '/analyze', { key: user, body: fd });
    expect(r.status).toBe(202);
    const t = await waitFor(async () => {
      const body = (await s.call('GET', `/tasks/${r.body.task_id}`, { key: user })).body;
      return body.status === 'completed' ? body : undefined;
    });
    expect(t.data.upload).toEqual({ filename: 'holiday.mp4', size: 2000 });
    const missing = await s.call('POST', '/analyze', { key: user, form: { video: { path: join(s.mediaDir, 'nothing-here.mp4') } } });
    expect(missing.status).toBe(422);
    await waitFor(() => (rx.received.length >= 2 ? true : undefined), 10_000, 'deliveries');
    // The stand-in task echoes its raw input as its result, so results are left out; the rest is what callers see.
    const noResult = (x: unknown) => JSON.stringify(x, (k, v) => (k === 'result' ? undefined : v));
    const everything = noResult([t, missing.body, (await s.call('GET', '/tasks', { key: user })).body, rx.received.map((x) => JSON.parse(x.body))]);
    expect(everything).not.toContain(`${s.dataDir}/`);
    expect(everything.match(/.{80}\.upload\b.{20}/)?.[0] ?? null).toBeNull();
    await rx.close();
  });
});

describe('task errors name files as the caller gave them', () => {
  it('reports a broken upload by its file name, without the data dir', async () => {
    const s = await startTestServer();
    try {
      const fd = new FormData();
      fd.set('body', JSON.stringify({ video: { content: 'broken.mp4' } }));
      fd.set('file', new Blob(['this is not a video at all '.repeat(40)]), 'broken.mp4');
      const r = await s.call('POST', '/analyze', { body: fd });
      const t = await waitFor(async () => {
        const body = (await s.call('GET', `/tasks/${r.body.task_id}`)).body;
        return body.status === 'failed' ? body : undefined;
      }, 60_000);
      expect(t.error?.message).toMatch(/^broken\.mp4 is not a media file/);
      expect(t.error?.message).not.toContain(s.dataDir);
      // Never the descriptor ffmpeg read it through, nor the name it has on the server (issue 21.6).
      expect(t.error?.message).not.toMatch(/proc\/self\/fd|\.upload\b/);
    } finally {
      await s.close();
    }
  });
});

describe('webhooks: loopback receivers, no special ranges, replay protection', () => {
  it('refuses a receiver at an address literal outside public and loopback at registration', async () => {
    const s = await startTestServer();
    try {
      const r = await s.call('POST', '/webhooks', { json: { url: 'http://0.0.0.0:9/hook' } });
      expect(r.status).toBe(422);
      expect(r.body.errors[0]).toMatchObject({ field: 'url' });
      expect(r.body.detail).toMatch(/0\.0\.0\.0 is not an address vidx may send to/);
    } finally {
      await s.close();
    }
  });

  it('sends nothing to a receiver the policy does not allow, recording why', async () => {
    const fake = fakeAnalyze();
    const rx = await startReceiver();
    // A loopback receiver under a policy without loopback stands in for a private address; a name (resolved
    // at delivery, not at registration) leads there.
    const resolver = async (host: string) => (host === 'hooks.test' ? ['127.0.0.1'] : []);
    const s = await startTestServer({ registerTasks: fake.register, resolver, webhookEgress: egressPolicy({ loopback: false }), deliveryPolicy: { timeoutMs: 2000, retryDelaysMs: [] } });
    try {
      const hook = await s.call('POST', '/webhooks', { json: { url: `${rx.url.replace('127.0.0.1', 'hooks.test')}/hook` } });
      expect(hook.status).toBe(201);
      await s.call('POST', '/analyze', { form: { video: { url: 'http://127.0.0.1:9/v.mp4' } } });
      const row = await waitFor(() => s.vidx.store.db.prepare("SELECT * FROM webhook_deliveries WHERE status = 'failed'").get() as { last_error: string } | undefined, 10_000, 'failed delivery');
      expect(row.last_error).toMatch(/cannot be reached or its address is not allowed/);
      expect(rx.received).toEqual([]);
    } finally {
      await s.close();
      await rx.close();
    }
  });
});

describe('file modes of the data dir', () => {
  it('creates the data dir 0700 and the database, WAL and SHM 0600', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'vidx-modes-')), 'data');
    const s = await startTestServer({ dataDir });
    try {
      await s.call('POST', '/collections', { json: { collection_id: 'c', name: 'C' } });
      expect(statSync(dataDir).mode & 0o777).toBe(0o700);
      for (const f of ['vidx.db', 'vidx.db-wal', 'vidx.db-shm']) expect(statSync(join(dataDir, f)).mode & 0o777, f).toBe(0o600);
    } finally {
      await s.close();
    }
  });

  it('warns at start and fails `vidx doctor` when the data dir or database is readable by others', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'vidx-open-'));
    const first = await startTestServer({ dataDir });
    await first.close({ keepData: true });
    chmodSync(dataDir, 0o755);
    chmodSync(join(dataDir, 'vidx.db'), 0o644);
    const warn = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const again = await startTestServer({ dataDir });
    const said = warn.mock.calls.map((c) => String(c[0])).join('');
    warn.mockRestore();
    await again.close({ keepData: true });
    expect(said).toContain(`${dataDir} can be read by other users (mode 755)`);
    expect(said).toContain(`chmod 700 '${dataDir}'`);
    expect(said).toContain(`chmod 600 '${join(dataDir, 'vidx.db')}'`);
    const doctor = await runCli(['doctor', '--data-dir', dataDir, '--url', 'http://127.0.0.1:9'], { VIDX_ADMIN_KEY: ADMIN_KEY });
    expect(doctor.code).toBe(1);
    expect(doctor.stdout + doctor.stderr).toMatch(/data dir privacy .*can be read by other users/);
    expect(doctor.stdout + doctor.stderr).toMatch(/vidx\.db .*vidx\.db can be read by other users \(mode 644\)/);
    expect(doctor.stdout + doctor.stderr).toContain(`chmod 600 '${join(dataDir, 'vidx.db')}'`);
  });
});
