import { statSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../support/app.js';
import type { TestServer } from '../support/server.js';

describe('health, auth and keys', () => {
  let s: TestServer;
  beforeAll(async () => {
    // No socket: what is tested here lives in the app (routes, middleware, errors), not in the transport.
    s = await startTestApp();
  });
  afterAll(() => s.close());

  it('answers /health without a key, with version and tool facts', async () => {
    const r = await s.call('GET', '/health', { key: null });
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('ok');
    expect(r.body.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(r.body.tools.ffmpeg.available).toBe(true);
    // The optional German OCR pass: the tool and the capability it gives (scripts/system-deps.sh installs it).
    expect(r.body.tools.tesseract).toMatchObject({ available: true });
    expect(r.body.capabilities.ocr_german).toMatchObject({ available: true, model: expect.stringMatching(/^Tesseract deu/) });
  });

  it('serves the OpenAPI 3.1 document and the docs page without a key', async () => {
    const doc = await s.call('GET', '/openapi.json', { key: null });
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBe('3.1.0');
    const paths = Object.keys(doc.body.paths);
    for (const p of [
      '/collections', '/collections/{collection_id}', '/collections/{collection_id}/items',
      '/collections/{collection_id}/items/{media_id}', '/tasks', '/tasks/count', '/tasks/{task_id}',
      '/tasks/{task_id}/retry', '/webhooks', '/webhooks/{webhook_id}', '/keys', '/keys/{key_id}',
      '/index', '/analyze', '/search', '/search_clusters', '/collection_suggestions', '/health',
    ]) {
      expect(paths).toContain(p);
    }
    expect(doc.body.components.securitySchemes.ApiKey).toMatchObject({ type: 'apiKey', name: 'x-api-key' });
    const docs = await s.call('GET', '/docs', { key: null });
    expect(docs.status).toBe(200);
    expect(String(docs.body)).toContain('openapi.json');
    expect(String(docs.body)).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)[a-z]/i);
  });

  it('refuses a missing or unknown key with 401 and the error shape', async () => {
    const missing = await s.call('GET', '/collections', { key: null });
    expect(missing.status).toBe(401);
    expect(missing.body).toMatchObject({ code: 'unauthorized', detail: expect.stringContaining('x-api-key') });
    expect(missing.body.request_id).toBeTruthy();
    const unknown = await s.call('GET', '/collections', { key: 'vidx_nope' });
    expect(unknown.status).toBe(401);
    expect(unknown.body.detail).toMatch(/unknown API key/);
  });

  it('lets admins create, list and revoke keys; the key is shown once and works at once', async () => {
    const created = await s.call('POST', '/keys', { json: { name: 'laptop' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'laptop', role: 'user', key: expect.stringMatching(/^vidx_/) });
    const list = await s.call('GET', '/keys');
    expect(list.status).toBe(200);
    const listed = list.body.keys.find((k: { id: string }) => k.id === created.body.id);
    expect(listed).toMatchObject({ name: 'laptop', role: 'user' });
    expect(JSON.stringify(list.body)).not.toContain(created.body.key);
    expect((await s.call('GET', '/collections', { key: created.body.key })).status).toBe(200);
    const revoked = await s.call('DELETE', `/keys/${created.body.id}`);
    expect(revoked.status).toBe(200);
    expect((await s.call('GET', '/collections', { key: created.body.key })).status).toBe(401);
    expect((await s.call('DELETE', `/keys/${created.body.id}`)).status).toBe(404);
  });

  it('keeps key management for admins (403 for users) and validates input', async () => {
    const user = await s.newKey('user');
    expect((await s.call('GET', '/keys', { key: user })).status).toBe(403);
    expect((await s.call('POST', '/keys', { key: user, json: { name: 'x' } })).status).toBe(403);
    const bad = await s.call('POST', '/keys', { json: { name: '', role: 'root' } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['name', 'role']);
    const admin = await s.call('POST', '/keys', { json: { name: 'second admin', role: 'admin' } });
    expect(admin.body.role).toBe('admin');
    expect((await s.call('GET', '/keys', { key: admin.body.key })).status).toBe(200);
  });

  it('refuses to revoke the last admin key', async () => {
    const list = (await s.call('GET', '/keys')).body.keys as { id: string; role: string }[];
    const admins = list.filter((k) => k.role === 'admin');
    for (const k of admins.slice(1)) expect((await s.call('DELETE', `/keys/${k.id}`)).status).toBe(200);
    const last = await s.call('DELETE', `/keys/${admins[0].id}`);
    expect(last.status).toBe(409);
    expect(last.body.detail).toMatch(/last admin/);
  });
});

describe('first start without VIDX_ADMIN_KEY', () => {
  it('writes a working admin key to <data dir>/admin.key with mode 0600, once', async () => {
    const s = await startTestApp({ noAdminKey: true });
    try {
      const file = join(s.dataDir, 'admin.key');
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const key = readFileSync(file, 'utf8').trim();
      const r = await s.call('GET', '/keys', { key });
      expect(r.status).toBe(200);
      expect(r.body.keys).toHaveLength(1);
      expect(r.body.keys[0].role).toBe('admin');
      await s.close({ keepData: true });
      const again = await startTestApp({ noAdminKey: true, dataDir: s.dataDir });
      expect(readFileSync(file, 'utf8').trim()).toBe(key);
      expect((await again.call('GET', '/keys', { key })).body.keys).toHaveLength(1);
      await again.close();
    } finally {
      await s.close().catch(() => {});
    }
  });
});
