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

  it('keeps the API paths and /docs; the API still needs the key', async () => {
    expect((await fetch(`${s.url}/docs`)).status).toBe(200);
    // Without a built dist/web/docs the renderer comes from node_modules.
    expect((await fetch(`${s.url}/docs/assets/swagger-ui-bundle.js`)).status).toBe(200);
    expect((await fetch(`${s.url}/collections`)).status).toBe(401);
    const doc = (await s.call('GET', '/openapi.json')).body;
    expect(doc.paths['/me'].get).toBeTruthy();
  });
});
