/** How vidx serves the web page's files (no browser): the unbuilt case, asset names, and GET /me. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';

let s: TestServer;
let empty: string;

beforeAll(async () => {
  empty = mkdtempSync(join(tmpdir(), 'vidx-web-empty-'));
  s = await startTestServer({ env: { VIDX_WEB_DIR: empty } });
});

afterAll(async () => {
  await s?.close();
  rmSync(empty, { recursive: true, force: true });
});

describe('serving the web page', () => {
  it('answers 503 with the build command when the page was never built, and 404 JSON for unknown assets', async () => {
    const page = await fetch(`${s.url}/`);
    expect(page.status).toBe(503);
    expect(await page.text()).toContain('npm run build:web');
    for (const path of ['/assets/index-abc.js', '/assets/..%2F..%2Fvidx.db', '/assets/.hidden', '/assets/a/b.js']) {
      const res = await fetch(`${s.url}${path}`);
      expect(res.status, path).toBe(404);
    }
    const res = await fetch(`${s.url}/assets/missing.js`);
    expect(await res.json()).toMatchObject({ code: 'not_found' });
  });

  it('GET /me names the calling key; without one it is 401', async () => {
    const admin = await s.call('GET', '/me');
    expect(admin.status).toBe(200);
    expect(admin.body).toMatchObject({ role: 'admin', id: expect.any(String), name: expect.any(String) });
    const user = await s.call('GET', '/me', { key: await s.newKey('user') });
    expect(user.body.role).toBe('user');
    expect((await s.call('GET', '/me', { key: null })).status).toBe(401);
    expect((await s.call('GET', '/me', { key: 'vidx_unknown' })).status).toBe(401);
  });

  it('names the key from VIDX_ADMIN_KEY "admin", not after the setting: the page shows it as the person signed in (issue 42)', async () => {
    const me = await s.call('GET', '/me');
    expect(me.body).toMatchObject({ role: 'admin', name: 'admin' });
    expect(JSON.stringify((await s.call('GET', '/keys')).body)).not.toContain('VIDX_ADMIN_KEY');
  });

  it('tells the sign-in page where the admin key came from, only on loopback, with no key and no path of a key it did not write (issue 42)', async () => {
    const health = (await s.call('GET', '/health', { key: null })).body;
    expect(health).toMatchObject({ admin_key_source: 'env', admin_key_file: null });
    expect(JSON.stringify(health)).not.toContain(s.adminKey);
    const written = await startTestServer({ noAdminKey: true, listen: false });
    try {
      expect((await written.call('GET', '/health', { key: null })).body).toMatchObject({ admin_key_source: 'file', admin_key_file: join(written.dataDir, 'admin.key') });
    } finally {
      await written.close();
    }
    // A server others reach says neither to a caller without a key.
    const lan = await startTestServer({ listen: false, env: { VIDX_HOST: '192.0.2.10', VIDX_ALLOWED_HOSTS: '192.0.2.10' } });
    try {
      const far = (await lan.call('GET', '/health', { key: null, headers: { host: '192.0.2.10' } })).body;
      expect(far.status).toBe('ok');
      expect(far).not.toHaveProperty('admin_key_source');
      expect(far).not.toHaveProperty('admin_key_file');
    } finally {
      await lan.close();
    }
  });

  it('keeps the API paths and /docs; the API still needs the key', async () => {
    expect((await fetch(`${s.url}/docs`)).status).toBe(200);
    // Without a built dist/web/docs the renderer comes from node_modules.
    expect((await fetch(`${s.url}/docs/assets/swagger-ui-bundle.js`)).status).toBe(200);
    expect((await fetch(`${s.url}/collections`)).status).toBe(401);
    const doc = (await s.call('GET', '/openapi.json')).body;
    expect(doc.paths['/me'].get).toBeTruthy();
  });
});
