import { request } from 'node:http';
import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { redactSecrets } from '../../src/logger.js';
import { onAllowList } from '../../src/media/egress.js';
import { servedHosts } from '../../src/startup/hosts.js';
import { seedItems } from '../support/seed.js';
import { ADMIN_KEY, startTestServer, type TestServer } from '../support/server.js';

/** A GET to the test server (always 127.0.0.1) with the given Host header; fetch may not set Host. */
function getWithHost(s: TestServer, path: string, host: string, key?: string): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  const { port } = new URL(s.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'GET', headers: { host, ...(key ? { 'x-api-key': key } : {}) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * Issue 32.4: a page whose DNS name was rebound to 127.0.0.1 sends its own name as Host and is refused
 * everywhere, /health and the page included; loopback names, the bound address and VIDX_ALLOWED_HOSTS pass.
 * Every request goes to 127.0.0.1; only the Host header varies.
 */
describe('Host allowlist', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ env: { VIDX_ALLOWED_HOSTS: 'nas.home, 10.9.0.0/16', VIDX_PUBLIC_URL: 'https://vidx.example.org' } });
  });
  afterAll(() => s.close());

  it('refuses a foreign Host on /health, the page and an API route with a JSON 403 naming the host and the setting', async () => {
    for (const path of ['/health', '/', '/collections', '/files/x.jpg?exp=1&sig=x', '/no-such-route']) {
      for (const host of ['evil.example', `evil.example:${new URL(s.url).port}`, 'EVIL.example.', 'nas.home.evil.example', '192.168.7.7']) {
        const r = await getWithHost(s, path, host, ADMIN_KEY);
        expect(r.status, `${path} ${host}`).toBe(403);
        expect(r.headers['content-type']).toMatch(/application\/json/);
        const body = JSON.parse(r.body);
        expect(body.code).toBe('host_not_allowed');
        expect(body.detail).toContain(host.replace(/:\d+$/, '').replace(/\.$/, '').toLowerCase());
        expect(body.detail).toMatch(/VIDX_ALLOWED_HOSTS/);
        expect(r.body).not.toMatch(/admin_key_file|version/);
      }
    }
  });

  it('answers loopback names, the public URL host and allowed hosts and ranges, whatever the port', async () => {
    const port = new URL(s.url).port;
    const hosts = ['localhost', `localhost:${port}`, '127.0.0.1', `127.0.0.1:${port}`, '[::1]', `[::1]:${port}`, 'app.localhost', '127.0.0.2',
      'nas.home', 'nas.home:9999', 'NAS.home', 'vidx.example.org', '10.9.3.4'];
    for (const host of hosts) {
      const r = await getWithHost(s, '/health', host);
      expect(r.status, host).toBe(200);
      expect(JSON.parse(r.body).status).toBe('ok');
    }
    expect((await getWithHost(s, '/collections', 'nas.home', ADMIN_KEY)).status).toBe(200);
  });

  it('allows the address a server binds when that is not loopback, and the machine\'s own addresses and name when it binds every address', () => {
    const bound = servedHosts({ ...s.config, host: '192.168.50.5' });
    expect(onAllowList('192.168.50.5', bound)).toBe(true);
    expect(onAllowList('192.168.50.6', bound)).toBe(false);
    expect(onAllowList('nas.home', bound)).toBe(true);
    const every = servedHosts({ ...s.config, host: '0.0.0.0' });
    expect(onAllowList(hostname(), every)).toBe(true);
    expect(onAllowList('evil.example', every)).toBe(false);
    const loop = servedHosts({ ...s.config, host: '127.0.0.1', publicUrl: undefined });
    expect([...loop.hosts]).toEqual(['nas.home']);
  });

  it('refuses a VIDX_ALLOWED_HOSTS entry that is no host name or range, naming the variable', () => {
    expect(() => loadConfig({ VIDX_DATA_DIR: s.dataDir, VIDX_ALLOWED_HOSTS: 'http://nas:8484/' })).toThrow(/VIDX_ALLOWED_HOSTS: "http:\/\/nas:8484\/" is not/);
  });
});

/** Issue 32.5: nosniff on every answer, a sandboxing CSP on /files, no share token or link signature in the log. */
describe('response headers and the log', () => {
  let s: TestServer;
  const lines: string[] = [];
  beforeAll(async () => {
    s = await startTestServer({ logger: (msg, fields) => lines.push(JSON.stringify({ msg, ...fields })) });
    await s.call('POST', '/collections', { json: { collection_id: 'c', name: 'C' } });
    seedItems(s.vidx, s.dataDir, 'c', 1);
  });
  afterAll(() => s.close());

  it('sends nosniff and the request id on JSON answers, errors, the page and files, and the sandboxing CSP on /files', async () => {
    const item = (await s.call('GET', '/collections/c/items/clip-000')).body;
    const thumb = String(item.thumbnail_url);
    expect(thumb).toMatch(/\/files\/.*sig=/);
    const file = await fetch(thumb);
    expect(file.status).toBe(200);
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    expect(file.headers.get('x-request-id')).toMatch(/^[\w-]{36}$/);
    expect(file.headers.get('content-security-policy')).toMatch(/^sandbox; default-src 'none'/);
    const forged = await fetch(thumb.replace(/sig=[^&]+/, 'sig=forged'));
    expect(forged.status).toBe(403);
    expect(forged.headers.get('content-security-policy')).toMatch(/^sandbox/);
    for (const path of ['/health', '/collections', '/', '/no-such-route']) {
      const r = await s.call('GET', path);
      expect(r.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(r.headers.get('x-request-id'), path).toMatch(/^[\w-]{36}$/);
      expect(r.headers.get('content-security-policy') ?? '', path).not.toMatch(/sandbox/);
    }
    // Set on the answer in place (no copy of it): a search's whole JSON still arrives, with the caller's id.
    const found = await s.call('POST', '/search', { form: { collection: 'c', query: 'clip' }, headers: { 'x-request-id': 'my-search.1' } });
    expect(found.status).toBe(200);
    expect(found.headers.get('x-request-id')).toBe('my-search.1');
    expect(found.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Array.isArray(found.body.results)).toBe(true);
    expect((await s.call('GET', '/collections', { key: null })).headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('logs share tokens and link signatures redacted', async () => {
    const token = 'ShareTokenSecret0123456789abcdef';
    expect((await s.call('GET', `/shared/${token}`, { key: null })).status).toBe(404);
    const thumb = String((await s.call('GET', '/collections/c/items/clip-000')).body.thumbnail_url);
    const sig = new URL(thumb).searchParams.get('sig')!;
    await fetch(thumb);
    await fetch(`${s.url}/files/nothing.jpg?exp=1&sig=${sig}`);
    const log = lines.join('\n');
    expect(log).toContain('/shared/<redacted>');
    expect(log).not.toContain(token);
    expect(log).not.toContain(sig);
    expect(redactSecrets(`see ${s.url}/#/s/${token} and ${thumb}`)).toBe(`see ${s.url}/#/s/<redacted> and ${thumb.replace(sig, '<redacted>')}`);
  });
});
