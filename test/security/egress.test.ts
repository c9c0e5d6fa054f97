import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, waitFor, type TestServer } from '../support/server.js';
import { textClip } from './media.js';

/** A stand-in for yt-dlp that fetches FAKE_YTDLP_TARGET through the `--proxy` it is given, as a page's player would. */
const FAKE_YTDLP = `#!${process.execPath}
const http = require('node:http');
const fs = require('node:fs');
const path = require('node:path');
const args = process.argv.slice(2);
const proxy = new URL(args[args.indexOf('--proxy') + 1]);
const out = args[args.indexOf('-o') + 1].replace('%(ext)s', 'mp4');
const target = process.env.FAKE_YTDLP_TARGET;
const req = http.get({ host: proxy.hostname, port: proxy.port, path: target, headers: { host: new URL(target).host } }, (res) => {
  if (res.statusCode !== 200) { console.error('ERROR: proxy answered ' + res.statusCode); process.exit(1); }
  res.pipe(fs.createWriteStream(out)).on('finish', () => process.exit(0));
});
req.on('error', (e) => { console.error('ERROR: ' + e.message); process.exit(1); });
`;

const bin = mkdtempSync(join(tmpdir(), 'vidx-fake-ytdlp-'));
writeFileSync(join(bin, 'yt-dlp'), FAKE_YTDLP);
chmodSync(join(bin, 'yt-dlp'), 0o755);
const tools = { YTDLP_PATH: join(bin, 'yt-dlp') };

/** A loopback web server that counts what reaches it. */
async function target(host: string, handler: (path: string) => { status: number; type?: string; body?: Buffer | string; location?: string }) {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    hits.push(req.url ?? '');
    const r = handler(req.url ?? '');
    res.writeHead(r.status, { ...(r.type ? { 'content-type': r.type } : {}), ...(r.location ? { location: r.location } : {}) });
    res.end(r.body ?? '');
  });
  await new Promise<void>((r) => server.listen(0, host, r));
  const port = (server.address() as AddressInfo).port;
  return { port, hits, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/**
 * A user key must not make vidx fetch from the owner's machine or network (loopback in every spelling,
 * through redirects, through DNS answers that change, through yt-dlp), and refused and closed look alike.
 */
describe('outbound requests: the address policy', () => {
  let video: Buffer;
  let site: Awaited<ReturnType<typeof target>>;
  let other: Awaited<ReturnType<typeof target>>;
  let s: TestServer;
  let user: string;

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vidx-egress-'));
    await textClip(join(dir, 'v.mp4'), 'HARBOUR');
    video = readFileSync(join(dir, 'v.mp4'));
    other = await target('127.0.0.2', () => ({ status: 200, type: 'video/mp4', body: video }));
    site = await target('127.0.0.1', (p) =>
      p.startsWith('/hop') ? { status: 302, location: `http://127.0.0.2:${other.port}/inner.mp4` } : { status: 200, type: 'video/mp4', body: video },
    );
    s = await startTestServer({ env: tools });
    user = await s.newKey('user');
  }, 60_000);
  afterAll(async () => {
    // Files share a worker's process (isolate: false): the stand-in's setting leaves with this file.
    delete process.env.FAKE_YTDLP_TARGET;
    await s.close();
    await site.close();
    await other.close();
  });

  async function analyzeUrl(server: TestServer, key: string, url: string) {
    const r = await server.call('POST', '/analyze', { key, form: { video: { url } } });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    return waitFor(async () => {
      const t = (await server.call('GET', `/tasks/${r.body.task_id}`, { key })).body;
      return t.status === 'completed' || t.status === 'failed' ? t : undefined;
    }, 60_000, 'task end');
  }

  it('refuses loopback in every spelling for a user key, without sending a request', async () => {
    const p = site.port;
    const spellings = [
      `http://127.0.0.1:${p}/v.mp4`, `http://localhost:${p}/v.mp4`, `http://0.0.0.0:${p}/v.mp4`, `http://2130706433:${p}/v.mp4`,
      `http://0x7f000001:${p}/v.mp4`, `http://0177.0.0.1:${p}/v.mp4`, `http://127.1:${p}/v.mp4`, `http://[::1]:${p}/v.mp4`,
      `http://[::ffff:127.0.0.1]:${p}/v.mp4`, `http://[::ffff:7f00:1]:${p}/v.mp4`, `http://127.0.0.2:${other.port}/v.mp4`,
    ];
    for (const url of spellings) {
      const t = await analyzeUrl(s, user, url);
      expect(t.status, url).toBe('failed');
      expect(t.error?.message, url).toMatch(/cannot be reached from vidx or is not allowed/);
    }
    expect(site.hits).toEqual([]);
    expect(other.hits).toEqual([]);
  });

  it('gives a closed port and a refused open port the same answer', async () => {
    const open = await analyzeUrl(s, user, `http://127.0.0.1:${site.port}/v.mp4`);
    const closed = await analyzeUrl(s, user, 'http://127.0.0.1:1/v.mp4');
    const strip = (e: string) => e.replace(/127\.0\.0\.1:\d+/, 'HOST');
    expect(strip(open.error?.message)).toBe(strip(closed.error?.message));
    expect(site.hits).toEqual([]);
  });

  it('lets an admin key fetch from loopback (a desktop script serving files on localhost)', async () => {
    const t = await analyzeUrl(s, s.adminKey, `http://127.0.0.1:${site.port}/v.mp4`);
    expect(t.status, t.error?.message).toBe('completed');
    expect(site.hits).toEqual(['/v.mp4']);
    site.hits.length = 0;
  });

  it('opens VIDX_URL_ALLOW to every key, checks each redirect hop, and connects only to the address it checked', async () => {
    // media.test answers 127.0.0.1 once, then 127.0.0.3: a second lookup would go elsewhere.
    let lookups = 0;
    const resolver = async (host: string) => (host === 'media.test' ? [lookups++ === 0 ? '127.0.0.1' : '127.0.0.3'] : []);
    const rebound = await target('127.0.0.3', () => ({ status: 200, type: 'video/mp4', body: video }));
    const allowed = await startTestServer({ env: { ...tools, VIDX_URL_ALLOW: '127.0.0.1' }, resolver });
    try {
      const key = await allowed.newKey('user');
      const direct = await analyzeUrl(allowed, key, `http://127.0.0.1:${site.port}/v.mp4`);
      expect(direct.status, direct.error?.message).toBe('completed');
      const hop = await analyzeUrl(allowed, key, `http://127.0.0.1:${site.port}/hop`);
      expect(hop.status).toBe('failed');
      expect(hop.error?.message).toMatch(/127\.0\.0\.2:\d+ cannot be reached from vidx or is not allowed/);
      expect(other.hits).toEqual([]);
      const named = await analyzeUrl(allowed, key, `http://media.test:${site.port}/named.mp4`);
      expect(named.status, named.error?.message).toBe('completed');
      expect(lookups).toBe(1);
      expect(rebound.hits).toEqual([]);
      expect(site.hits).toEqual(['/v.mp4', '/hop', '/named.mp4']);
    } finally {
      await allowed.close();
      await rebound.close();
      site.hits.length = 0;
    }
  });

  it('sends yt-dlp through the policy: a page cannot lead it into loopback for a user key', async () => {
    process.env.FAKE_YTDLP_TARGET = `http://127.0.0.1:${site.port}/player.mp4`;
    // A video-sharing page goes straight to yt-dlp; the stand-in never contacts that host.
    const refused = await analyzeUrl(s, user, 'https://www.youtube.com/watch?v=vidx-test');
    expect(refused.status).toBe('failed');
    expect(refused.error?.message).toMatch(/yt-dlp could not download .*proxy answered 502/);
    expect(site.hits).toEqual([]);
    const allowed = await analyzeUrl(s, s.adminKey, 'https://www.youtube.com/watch?v=vidx-test');
    expect(allowed.status, allowed.error?.message).toBe('completed');
    expect(site.hits).toEqual(['/player.mp4']);
    site.hits.length = 0;
  });
});
