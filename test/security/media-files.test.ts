import { mkdtempSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, waitFor, type TestServer } from '../support/server.js';
import { concatList, hlsPlaylist, srt, textClip } from './media.js';

/**
 * Attacks with a user key on what ffmpeg, the sidecar reader and /files open: files outside the media
 * roots must never be read, whatever a playlist, a list or a symbolic link says.
 */
describe('files outside the media roots stay unread (user key)', () => {
  let s: TestServer;
  let user: string;
  let secretDir: string;
  let web: Server;
  let webUrl: string;

  beforeAll(async () => {
    s = await startTestServer();
    user = await s.newKey('user');
    secretDir = mkdtempSync(join(tmpdir(), 'vidx-secret-'));
    await textClip(join(secretDir, 'secret.ts'), 'PAYROLL');
    writeFileSync(join(secretDir, 'secret.srt'), srt('the safe code is hunter two'));
    await textClip(join(s.mediaDir, 'clip.mp4'), 'GARDEN');
    await textClip(join(s.mediaDir, 'kept.mp4'), 'KITCHEN');
    hlsPlaylist(join(s.mediaDir, 'playlist.m3u8'), `file://${join(secretDir, 'secret.ts')}`);
    hlsPlaylist(join(s.mediaDir, 'disguised.mp4'), `file://${join(secretDir, 'secret.ts')}`);
    concatList(join(s.mediaDir, 'list.ffconcat'), join(secretDir, 'secret.ts'));
    symlinkSync(join(secretDir, 'secret.srt'), join(s.mediaDir, 'clip.srt'));
    web = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/vnd.apple.mpegurl' });
      res.end(readFileSync(join(s.mediaDir, 'playlist.m3u8')));
    });
    await new Promise<void>((r) => web.listen(0, '127.0.0.1', r));
    webUrl = `http://127.0.0.1:${(web.address() as AddressInfo).port}/live.m3u8`;
    await s.call('POST', '/collections', { key: user, json: { collection_id: 'home', name: 'Home' } });
  }, 120_000);
  afterAll(async () => {
    await new Promise<void>((r) => web.close(() => r()));
    await s.close();
    rmSync(secretDir, { recursive: true, force: true });
  });

  async function finished(key: string, path: string, body: unknown) {
    const r = await s.call('POST', path, { key, form: body });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    return waitFor(async () => {
      const t = (await s.call('GET', `/tasks/${r.body.task_id}`, { key })).body;
      return t.status === 'completed' || t.status === 'failed' ? t : undefined;
    }, 90_000, 'task end');
  }

  it('refuses an HLS playlist in a media root that lists a file outside it, also when named .mp4', async () => {
    for (const name of ['playlist.m3u8', 'disguised.mp4']) {
      const t = await finished(user, '/analyze', { video: { path: join(s.mediaDir, name) } });
      expect(t.status).toBe('failed');
      expect(t.error?.message).toMatch(new RegExp(`${name.replace('.', '\\.')} is a HLS playlist \\(m3u8\\): it names other files or URLs`));
      expect(t.result).toBeNull();
      expect(JSON.stringify(t)).not.toMatch(/PAYROLL/i);
    }
  });

  it('refuses a playlist fetched from a URL (admin key, loopback allowed) and an ffconcat list', async () => {
    const fromUrl = await finished(s.adminKey, '/analyze', { video: { url: webUrl } });
    expect(fromUrl.status).toBe('failed');
    expect(fromUrl.error?.message).toMatch(/HLS playlist/);
    const list = await finished(user, '/analyze', { video: { path: join(s.mediaDir, 'list.ffconcat') } });
    expect(list.status).toBe('failed');
    expect(list.error?.message).toMatch(/list\.ffconcat is a concat\/ffconcat list: it names other files/);
  });

  it('skips a sidecar subtitle that is a symbolic link out of the roots, saying so', async () => {
    const t = await finished(user, '/analyze', { video: { path: join(s.mediaDir, 'clip.mp4') } });
    expect(t.status, t.error?.message).toBe('completed');
    expect(JSON.stringify(t.result)).not.toMatch(/hunter/);
    expect(t.result.transcript_source).not.toBe('sidecar');
    expect(t.result.warnings.join(' ')).toMatch(/clip\.srt leads outside the configured media roots/);
  });

  it('stops serving a path-indexed file through its signed link once the original becomes a link elsewhere', async () => {
    const original = join(s.mediaDir, 'kept.mp4');
    const t = await finished(user, '/index', { video: { path: original, media_id: 'kept', title: 'Kitchen garden walk' }, collection: 'home' });
    expect(t.status, t.error?.message).toBe('completed');
    const hits = (await s.call('POST', '/search', { key: user, form: { query: 'kitchen garden', collection: 'home' } })).body.results;
    const link = String(hits[0].src).replace(/#.*$/, '');
    expect(link).toMatch(/\/files\/.*sig=/);
    const before = await fetch(link);
    expect(before.status).toBe(200);
    expect((await before.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    unlinkSync(original);
    symlinkSync('/etc/passwd', original);
    const after = await fetch(link);
    expect(after.status).toBe(404);
    expect(await after.text()).not.toMatch(/root:/);
    // Back inside the roots: served again (the rule looks at the file when the request comes).
    unlinkSync(original);
    await textClip(original, 'KITCHEN');
    expect((await fetch(link)).status).toBe(200);
  });

  it('never reads vidx’s own data dir as media, even when it lies inside a media root', async () => {
    const inner = await startTestServer({ env: { VIDX_MEDIA_ROOTS: tmpdir() } });
    try {
      const key = await inner.newKey('user');
      const r = await inner.call('POST', '/analyze', { key, form: { video: { path: join(inner.dataDir, 'vidx.db') } } });
      expect(r.status).toBe(422);
      expect(r.body.detail).toMatch(/inside vidx's own data folder/);
    } finally {
      await inner.close();
    }
  });

  it('answers a malformed percent-encoding in a file link with 400, not 500', async () => {
    const r = await s.call('GET', '/files/%E0%A4%A?exp=1&sig=x', { key: null });
    expect(r.status).toBe(400);
    expect(r.body.detail).toMatch(/percent-encoding/);
  });
});
