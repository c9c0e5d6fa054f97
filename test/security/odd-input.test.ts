import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../support/app.js';
import type { TestServer } from '../support/server.js';

/** Odd paths, queries and bodies on every route: always a JSON 4xx (or a success), never a 5xx. */
describe('odd input never answers 5xx', () => {
  let s: TestServer;
  beforeAll(async () => {
    // No socket: what is tested here lives in the app (routes, middleware, errors), not in the transport.
    s = await startTestApp();
  });
  afterAll(() => s.close());

  it('answers malformed percent-encoding, huge and odd values in paths and queries with a 4xx', async () => {
    const bad = '%E0%A4%A';
    const paths = [
      `/files/${bad}?exp=1&sig=x`, `/files/%00?exp=1&sig=x`, `/files/..%2F..%2Fetc%2Fpasswd?exp=99999999999&sig=x`,
      `/collections/${bad}`, `/collections/${bad}/items`, `/collections/x/items/${bad}`, `/collections/x/items/${bad}/analysis`,
      `/tasks/${bad}`, `/webhooks/${bad}`, `/keys/${bad}`, `/collections?public=${bad}`, `/collections/a/items?offset=${bad}`,
      `/tasks?limit=${bad}`, '/tasks?status=%FF', `/${bad}`, `/collections/${'a'.repeat(5000)}`, '/tasks?limit=99999999999999999999',
      '/tasks?offset=-1', '/collections/x/items?limit=1e400', `/tasks/count?x=${bad}`, `/search_clusters?defer=${bad}`,
    ];
    for (const path of paths) {
      for (const method of ['GET', 'DELETE', 'PUT', 'POST']) {
        const r = await s.call(method, path, { json: method === 'PUT' || method === 'POST' ? {} : undefined });
        expect(r.status, `${method} ${path}`).toBeLessThan(500);
      }
    }
  });

  it('answers broken bodies with a 4xx that says why', async () => {
    const cases: [string, string, string][] = [
      ['/search', 'application/x-www-form-urlencoded', 'body=%E0%A4%A'],
      ['/collections', 'application/json', '\u0000'],
      ['/index', 'multipart/form-data; boundary=x', '--x\r\n'],
      ['/index', 'multipart/form-data', ''],
      ['/collections', 'application/json', '[]'],
      ['/webhooks', 'application/json', '{"url":"http://%E0%A4%A"}'],
      ['/analyze', 'application/json', '{"video":{"url":"http://[::1"}}'],
    ];
    for (const [path, type, body] of cases) {
      const r = await s.call('POST', path, { body, headers: { 'content-type': type } });
      expect(r.status, `${path} ${body}`).toBeGreaterThanOrEqual(400);
      expect(r.status, `${path} ${body}`).toBeLessThan(500);
      expect(typeof r.body.detail, path).toBe('string');
    }
  });
});
