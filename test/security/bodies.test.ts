import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpClient, textOf } from '../mcp/clients.js';
import { settledTask, startTestServer, type TestServer } from '../support/server.js';

/** `{"a":{"a":…1…}}` nested `depth` levels deep, built as text (a recursive stringify would overflow first). */
function nested(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/**
 * Issue 21.3 and 21.6: deep or oversized metadata, bodies that are not UTF-8, lone surrogates, webhook
 * floods. Each is a clear JSON 4xx that names the field or the reason; never a 500, never a task that
 * fails later.
 */
describe('request bodies: depth, size, text and webhook limits', () => {
  let s: TestServer;
  let user: string;
  beforeAll(async () => {
    s = await startTestServer();
    user = await s.newKey();
    writeFileSync(join(s.mediaDir, 'a.mp4'), 'placeholder');
    await s.call('POST', '/collections', { key: user, json: { collection_id: 'deep', name: 'Deep' } });
  });
  afterAll(() => s.close());

  const withMetadata = (metadataJson: string, extra = '') =>
    `{"video":{"path":${JSON.stringify(join(s.mediaDir, 'a.mp4'))},"additional_metadata":${metadataJson}}${extra}}`;

  it('refuses metadata nested 5,000 and 33 levels deep with a 422 naming the field, on /index and /analyze', async () => {
    for (const path of ['/index', '/analyze']) {
      for (const depth of [5000, 4000, 33]) {
        const body = withMetadata(nested(depth), path === '/index' ? ',"collection":"deep"' : '');
        for (const r of [
          await s.call('POST', path, { key: user, body, headers: { 'content-type': 'application/json' } }),
          await s.call('POST', path, { key: user, form: body }),
        ]) {
          expect(r.status, `${path} ${depth}`).toBe(422);
          expect(r.body.code).toBe('validation_error');
          expect(r.body.detail).toMatch(depth > 64 ? /body: JSON nested deeper than 64 levels/ : /video\.additional_metadata: nested deeper than 32 levels/);
        }
      }
    }
    const tasks = (await s.call('GET', '/tasks', { key: user })).body;
    expect(tasks.total).toBe(0);
  });

  it('accepts metadata 32 levels deep, and refuses more than 64 KiB of it naming the field', async () => {
    const ok = await s.call('POST', '/analyze', { key: user, form: withMetadata(nested(31)) });
    expect(ok.status, JSON.stringify(ok.body)).toBe(202);
    const big = await s.call('POST', '/analyze', { key: user, form: withMetadata(JSON.stringify({ note: 'x'.repeat(70 * 1024) })) });
    expect(big.status).toBe(422);
    expect(big.body.errors).toEqual([{ field: 'video.additional_metadata', message: expect.stringMatching(/larger than 64 KiB/) }]);
    await settledTask(s, ok.body.task_id);
  });

  it('answers deep JSON on every other body with a 4xx, never a 500', async () => {
    const deep = nested(5000);
    const routes: [string, string][] = [
      ['POST', '/collections'], ['PATCH', '/collections/deep'], ['POST', '/webhooks'], ['POST', '/search'], ['POST', '/search_clusters'],
      ['POST', '/collection_suggestions'], ['POST', '/collections/deep/folders'], ['POST', '/keys'], ['PUT', '/collections/deep/faces'],
    ];
    for (const [method, path] of routes) {
      const r = await s.call(method, path, { body: deep, headers: { 'content-type': 'application/json' } });
      expect(r.status, `${method} ${path}`).toBe(422);
      expect(r.body.detail).toMatch(/nested deeper than 64 levels/);
    }
  });

  it('refuses bytes that are not UTF-8 and lone surrogates, naming the field, instead of storing replaced text', async () => {
    const invalid = Buffer.concat([Buffer.from('{"collection_id":"utf","name":"Caf'), Buffer.from([0xe9]), Buffer.from('"}')]);
    const bytes = await s.call('POST', '/collections', { key: user, body: invalid, headers: { 'content-type': 'application/json' } });
    expect(bytes.status).toBe(400);
    expect(bytes.body.detail).toMatch(/not valid UTF-8/);
    const form = await s.call('POST', '/search', { key: user, body: 'body=%7B%22query%22%3A%22caf%E9%22%2C%22collection%22%3A%22deep%22%7D', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(form.status).toBe(400);
    expect(form.body.detail).toMatch(/not valid UTF-8/);
    const part = Buffer.concat([
      Buffer.from('--b\r\ncontent-disposition: form-data; name="body"\r\n\r\n{"query":"caf'), Buffer.from([0xe9]), Buffer.from('","collection":"deep"}\r\n--b--\r\n'),
    ]);
    const multipart = await fetch(`${s.url}/search`, { method: 'POST', headers: { 'x-api-key': user, 'content-type': 'multipart/form-data; boundary=b' }, body: part });
    expect(multipart.status).toBe(400);
    expect(((await multipart.json()) as { detail: string }).detail).toMatch(/not valid UTF-8/);
    const surrogate = await s.call('POST', '/analyze', { key: user, body: withMetadata('null').replace('"additional_metadata"', '"title":"a\\ud800b","additional_metadata"'), headers: { 'content-type': 'application/json' } });
    expect(surrogate.status).toBe(422);
    expect(surrogate.body.errors).toEqual([{ field: 'video.title', message: 'not well-formed Unicode' }]);
    // Well-formed text, emoji included, goes through untouched.
    const good = await s.call('POST', '/collections', { key: user, json: { collection_id: 'utf', name: 'Café 🎂 Küche' } });
    expect(good.status).toBe(201);
    expect((await s.call('GET', '/collections/utf', { key: user })).body.name).toBe('Café 🎂 Küche');
  });

  it('caps webhooks at 100 per key with a 409 that says why; other keys are not affected', async () => {
    for (let i = 0; i < 100; i++) {
      const r = await s.call('POST', '/webhooks', { key: user, json: { url: `http://127.0.0.1:9/hook-${i}` } });
      expect(r.status).toBe(201);
    }
    const over = await s.call('POST', '/webhooks', { key: user, json: { url: 'http://127.0.0.1:9/one-more' } });
    expect(over.status).toBe(409);
    expect(over.body.detail).toMatch(/already has 100 webhooks.*VIDX_MAX_WEBHOOKS_PER_KEY/);
    expect((await s.call('GET', '/webhooks', { key: user })).body.webhooks ?? (await s.call('GET', '/webhooks', { key: user })).body).toHaveLength(100);
    const other = await s.newKey();
    expect((await s.call('POST', '/webhooks', { key: other, json: { url: 'http://127.0.0.1:9/hook' } })).status).toBe(201);
  });

  it('refuses deep metadata in the MCP tools with a tool error naming the field', async () => {
    const client = await mcpClient('http', s.url, user);
    try {
      const r = await client.callTool({ name: 'analyze_video', arguments: { path: join(s.mediaDir, 'a.mp4'), metadata: JSON.parse(nested(40)) } });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/metadata/);
      expect(textOf(r)).toMatch(/nested deeper than 32 levels/);
    } finally {
      await client.close();
    }
  });
});
