import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join, relative } from 'node:path';
import { defaultTools } from '../../src/media/binaries.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { egressPolicy } from '../../src/media/egress.js';
import { SourceError } from '../../src/media/errors.js';
import { resolveSource, type SourceOptions, type VideoInput } from '../../src/media/sources.js';

let tmp: string;
let root: string;
let outside: string;
let temp: string;
let server: Server;
let base: string;
const BODY = Buffer.alloc(64 * 1024, 7);
const pending = new Set<() => void>();

async function code(input: VideoInput, opts: Partial<SourceOptions> = {}): Promise<string> {
  try {
    const src = await resolveSource(input, { tools: defaultTools, mediaRoots: [root], tempDir: temp, ...opts });
    await src.cleanup();
  } catch (e) {
    if (e instanceof SourceError) return `${e.code}: ${e.message}`;
    throw e;
  }
  return 'ok';
}

beforeAll(async () => {
  tmp = await mkdtemp(join(process.cwd(), 'test', '.tmp', 'sources-'));
  root = join(tmp, 'root');
  outside = join(tmp, 'outside');
  temp = join(tmp, 'temp');
  await mkdir(join(root, 'talks'), { recursive: true });
  await mkdir(outside);
  await mkdir(temp);
  await writeFile(join(root, 'talks', 'a.mp4'), 'inside');
  await writeFile(join(outside, 'secret.mp4'), 'outside');
  await symlink(join(outside, 'secret.mp4'), join(root, 'escape.mp4'));
  await symlink(outside, join(root, 'outdir'));
  await symlink(join(root, 'talks', 'a.mp4'), join(root, 'alias.mp4'));
  await symlink(root, join(tmp, 'root-link'));
  execFileSync('mkfifo', [join(root, 'pipe.mp4')]);

  server = createServer((req, res) => {
    const url = req.url ?? '/';
    if (url === '/clip.mp4') return res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': BODY.length }).end(BODY);
    if (url === '/redirect') return res.writeHead(302, { location: '/clip.mp4' }).end();
    if (url === '/big') return res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': 10_000_000 }).end();
    if (url === '/big-chunked') {
      res.writeHead(200, { 'content-type': 'video/mp4' });
      for (let i = 0; i < 8; i++) res.write(BODY);
      return res.end();
    }
    if (url === '/page') return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>x</title>');
    if (url === '/disguised') return res.writeHead(200, { 'content-type': 'application/octet-stream' }).end('\n  <!DOCTYPE html>\n<html><body>video page</body></html>');
    if (url === '/missing') return res.writeHead(404).end('nope');
    if (url === '/no-answer') return void pending.add(() => res.destroy());
    if (url === '/stall') {
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': BODY.length * 2 });
      res.write(BODY);
      return void pending.add(() => res.destroy());
    }
    res.writeHead(500).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const end of pending) end();
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
  await rm(tmp, { recursive: true, force: true });
});

describe('resolveSource: path', () => {
  it('accepts files inside a root by absolute or relative path, through symlinks that stay inside', async () => {
    const abs = await resolveSource({ path: join(root, 'talks', 'a.mp4') }, { tools: defaultTools, mediaRoots: [root], tempDir: temp });
    expect(abs).toMatchObject({ file: join(root, 'talks', 'a.mp4'), origin: 'path', src: join(root, 'talks', 'a.mp4') });
    expect((await resolveSource({ path: 'talks/a.mp4' }, { tools: defaultTools, mediaRoots: [root], tempDir: temp })).file).toBe(join(root, 'talks', 'a.mp4'));
    expect((await resolveSource({ path: join(root, 'alias.mp4') }, { tools: defaultTools, mediaRoots: [root], tempDir: temp })).file).toBe(join(root, 'talks', 'a.mp4'));
    // A configured root may itself be a symlink; paths are accepted written under either form of it.
    expect((await resolveSource({ path: join(root, 'talks', 'a.mp4') }, { tools: defaultTools, mediaRoots: [join(tmp, 'root-link')], tempDir: temp })).file).toBe(join(root, 'talks', 'a.mp4'));
    expect((await resolveSource({ path: join(tmp, 'root-link', 'talks', 'a.mp4') }, { tools: defaultTools, mediaRoots: [join(tmp, 'root-link')], tempDir: temp })).file).toBe(join(root, 'talks', 'a.mp4'));
    await abs.cleanup();
    expect(existsSync(join(root, 'talks', 'a.mp4'))).toBe(true);
  });

  it('refuses symlinks and relative tricks that leave the roots, without revealing what exists outside', async () => {
    expect(await code({ path: join(root, 'escape.mp4') })).toMatch(/^outside_roots: .*symbolic link/);
    expect(await code({ path: 'outdir/secret.mp4' })).toMatch(/^outside_roots: .*symbolic link/);
    expect(await code({ path: '../outside/secret.mp4' })).toMatch(/^outside_roots: .*outside the configured media roots/);
    expect(await code({ path: `${root}/talks/../../outside/secret.mp4` })).toMatch(/^outside_roots/);
    expect(await code({ path: join(outside, 'secret.mp4') })).toMatch(/^outside_roots/);
    expect(await code({ path: join(outside, 'does-not-exist.mp4') })).toMatch(/^outside_roots/);
    expect(await code({ path: `${root}-sibling/a.mp4` })).toMatch(/^outside_roots/);
    expect(await code({ path: '/etc/passwd' })).toMatch(/^outside_roots/);
    // Written through an alias that is not a configured root: refused before anything outside is touched.
    expect(await code({ path: join(tmp, 'root-link', 'talks', 'a.mp4') })).toMatch(/^outside_roots/);
    expect(await code({ path: 'talks/a.mp4' }, { mediaRoots: [] })).toMatch(/^outside_roots: .*no media roots/);
  });

  it('refuses missing files, folders, FIFOs and malformed inputs', async () => {
    expect(await code({ path: 'talks/none.mp4' })).toMatch(/^not_found/);
    expect(await code({ path: 'talks' })).toMatch(/^not_a_file/);
    expect(await code({ path: 'pipe.mp4' })).toMatch(/^not_a_file/);
    expect(await code({ path: 'a\0b' })).toMatch(/^invalid_input/);
    expect(await code({})).toMatch(/^invalid_input: exactly one of path, url or content/);
    expect(await code({ path: 'talks/a.mp4', url: `${base}/clip.mp4` })).toMatch(/^invalid_input: .*got path, url/);
    expect(await code({ path: '' })).toMatch(/^invalid_input/);
  });
});

describe('resolveSource: upload', () => {
  it('accepts a stored upload and removes it on cleanup; refuses files elsewhere', async () => {
    const uploads = join(tmp, 'uploads');
    await mkdir(uploads, { recursive: true });
    await writeFile(join(uploads, 'u1'), 'data');
    const src = await resolveSource({ content: join(uploads, 'u1') }, { tools: defaultTools, mediaRoots: [], tempDir: temp, uploadDir: uploads });
    expect(src).toMatchObject({ file: join(uploads, 'u1'), origin: 'upload' });
    await src.cleanup();
    expect(existsSync(join(uploads, 'u1'))).toBe(false);
    expect(await code({ content: join(outside, 'secret.mp4') }, { uploadDir: uploads })).toMatch(/^invalid_input: content does not name a stored upload/);
  });
});

describe('resolveSource: url', () => {
  // These servers listen on loopback, which only an admin's policy reaches (see test/security for refusals).
  const egress = egressPolicy({ loopback: true });
  const fast = { connectTimeoutMs: 1500, idleTimeoutMs: 1500, egress };

  it('downloads a file into a private temp folder that cleanup removes, following redirects', async () => {
    const src = await resolveSource({ url: `${base}/redirect` }, { tools: defaultTools, mediaRoots: [], tempDir: temp, ...fast });
    expect(src.origin).toBe('url');
    expect(src.src).toBe(`${base}/redirect`);
    expect(relative(temp, src.file).startsWith('..')).toBe(false);
    expect((await readFile(src.file)).equals(BODY)).toBe(true);
    await src.cleanup();
    await src.cleanup();
    expect(await readdir(temp)).toEqual([]);
  });

  it('enforces the byte limit from Content-Length and while streaming, leaving nothing behind', async () => {
    expect(await code({ url: `${base}/big` }, { maxBytes: 100_000, ...fast })).toMatch(/^too_large: .*10000000 bytes/);
    expect(await code({ url: `${base}/big-chunked` }, { maxBytes: 100_000, ...fast })).toMatch(/^too_large/);
    expect(await readdir(temp)).toEqual([]);
  });

  it('sends web pages to yt-dlp and says clearly when it is missing', async () => {
    expect(await code({ url: `${base}/page` }, { ytDlpPath: null, ...fast })).toMatch(/^ytdlp_missing: .*is a web page \(text\/html\).*yt-dlp, which was not found/);
    expect(await code({ url: `${base}/disguised` }, { ytDlpPath: null, ...fast })).toMatch(/^ytdlp_missing/);
    expect(await code({ url: 'https://www.youtube.com/watch?v=abc' }, { ytDlpPath: null })).toMatch(/^ytdlp_missing: .*video-sharing page \(www\.youtube\.com\)/);
    expect(await readdir(temp)).toEqual([]);
  });

  it('uses yt-dlp for pages when it is there', async () => {
    // A stand-in for yt-dlp: writes a video and a subtitle where -o points.
    const fake = join(tmp, 'fake-yt-dlp');
    await writeFile(fake, '#!/bin/sh\nwhile [ "$1" != "-o" ]; do shift; done\nout=$(dirname "$2")\necho video > "$out/video.mp4"\necho sub > "$out/video.en.vtt"\n');
    await chmod(fake, 0o755);
    const src = await resolveSource({ url: `${base}/page` }, { tools: defaultTools, mediaRoots: [], tempDir: temp, ytDlpPath: fake, ...fast });
    expect(src.file.endsWith('video.mp4')).toBe(true);
    await src.cleanup();
    expect(await readdir(temp)).toEqual([]);
  });

  it('times out on a server that never answers or stalls, and rejects bad schemes and statuses', async () => {
    expect(await code({ url: `${base}/no-answer` }, { connectTimeoutMs: 300, idleTimeoutMs: 5000, egress })).toMatch(/^timeout: .*did not respond within 300 ms/);
    expect(await code({ url: `${base}/stall` }, { connectTimeoutMs: 2000, idleTimeoutMs: 300, egress })).toMatch(/^timeout: .*stalled/);
    expect(await code({ url: `${base}/missing` }, fast)).toMatch(/^http_status: .*HTTP 404/);
    expect(await code({ url: 'ftp://127.0.0.1/x.mp4' })).toMatch(/^unsupported_url/);
    expect(await code({ url: 'file:///etc/passwd' })).toMatch(/^unsupported_url/);
    expect(await code({ url: 'not a url' })).toMatch(/^invalid_input/);
    expect(await code({ url: 'http://127.0.0.1:1/x.mp4' }, fast)).toMatch(/^unreachable: 127\.0\.0\.1:1 cannot be reached from vidx or is not allowed/);
    expect(await readdir(temp)).toEqual([]);
  });

  it('stops a download on abort', async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(new Error('cancelled by test')), 200);
    await expect(resolveSource({ url: `${base}/stall` }, { tools: defaultTools, mediaRoots: [], tempDir: temp, signal: ac.signal, idleTimeoutMs: 10_000, egress })).rejects.toThrow('cancelled by test');
    expect(await readdir(temp)).toEqual([]);
  });
});
