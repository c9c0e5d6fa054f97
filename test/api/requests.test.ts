import { readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeAnalyze } from '../support/fake-tasks.js';
import { startTestServer, waitFor, type TestServer } from '../support/server.js';

describe('POST /index, /analyze and the search endpoints: the form convention and input rules', () => {
  let s: TestServer;
  let user: string;
  let media: string;
  const fake = fakeAnalyze();
  beforeAll(async () => {
    s = await startTestServer({ registerTasks: fake.register, env: { VIDX_MAX_UPLOAD_MB: '1' } });
    user = await s.newKey();
    await s.call('POST', '/collections', { key: user, json: { collection_id: 'mine', name: 'Mine' } });
    await s.call('POST', '/collections', { json: { collection_id: 'admins-private', name: 'Secret' } });
    await s.call('POST', '/collections', { json: { collection_id: 'shared', name: 'Shared', is_public: true } });
    media = s.mediaDir;
    writeFileSync(join(media, 'a.mp4'), 'not really a video');
    symlinkSync('/etc/hostname', join(media, 'escape.mp4'));
  });
  afterAll(() => s.close());

  const index = (body: unknown, key = user) => s.call('POST', '/index', { key, form: body });

  it('queues a valid /index request sent url-encoded, as JSON, and as multipart', async () => {
    const form = await index({ video: { path: join(media, 'a.mp4') }, collection: 'mine' });
    expect(form.status).toBe(202);
    const t = (await s.call('GET', `/tasks/${form.body.task_id}`, { key: user })).body;
    expect(t.endpoint).toBe('/index');
    expect(t.data).toMatchObject({ collection: 'mine', index_language: 'en', reindex_if_exists: false, upload: null });
    expect(t.data.video).toEqual({ path: join(media, 'a.mp4'), url: null, content: null, media_id: expect.stringMatching(/^[A-Za-z0-9_-]{1,36}$/), title: null, additional_metadata: null });
    const json = await s.call('POST', '/index', { key: user, json: { video: { url: 'https://127.0.0.1:1/v.mp4', media_id: 'given_id-1', title: 'T', additional_metadata: { a: 1 } }, collection: 'mine', index_language: 'de', reindex_if_exists: true } });
    expect(json.status).toBe(202);
    const tj = (await s.call('GET', `/tasks/${json.body.task_id}`, { key: user })).body;
    expect(tj.data).toMatchObject({ index_language: 'de', reindex_if_exists: true, video: { media_id: 'given_id-1', title: 'T', additional_metadata: { a: 1 } } });
  });

  it('streams a multipart upload to disk and hands it to the task that video.content names', async () => {
    const fd = new FormData();
    fd.set('body', JSON.stringify({ video: { content: 'clip.mp4' } }));
    fd.set('file', new Blob([Buffer.alloc(200_000, 7)]), 'clip.mp4');
    const r = await s.call('POST', '/analyze', { key: user, body: fd });
    expect(r.status).toBe(202);
    const t = await waitFor(async () => {
      const body = (await s.call('GET', `/tasks/${r.body.task_id}`, { key: user })).body;
      return body.status === 'completed' ? body : undefined;
    });
    // The upload is named as the caller named it; where the server keeps it is not shown.
    expect(t.data.upload).toEqual({ filename: 'clip.mp4', size: 200_000 });
    expect(t.data.video.content).toBe('clip.mp4');
    expect(readdirSync(join(s.dataDir, 'uploads'))).toHaveLength(1);
    expect((await s.call('DELETE', `/tasks/${r.body.task_id}`, { key: user })).status).toBe(200);
    expect(readdirSync(join(s.dataDir, 'uploads'))).toHaveLength(0);
  });

  it('answers 413 for an upload over the limit and keeps no partial file', async () => {
    const before = readdirSync(join(s.dataDir, 'uploads')).length;
    expect(before).toBe(0);
    const fd = new FormData();
    fd.set('body', JSON.stringify({ video: { content: 'big.mp4' } }));
    fd.set('file', new Blob([Buffer.alloc(1024 * 1024 + 10, 1)]), 'big.mp4');
    const r = await s.call('POST', '/analyze', { key: user, body: fd });
    expect(r.status).toBe(413);
    expect(r.body.detail).toMatch(/big\.mp4.*larger than/);
    expect(readdirSync(join(s.dataDir, 'uploads')).length).toBe(before);
  });

  it('answers every kind of bad input with a JSON 4xx that names the field or reason', async () => {
    const okVideo = { url: 'https://127.0.0.1:1/v.mp4' };
    const cases: [string, unknown, number, string][] = [
      ['no video', { collection: 'mine' }, 422, 'video'],
      ['no collection', { video: okVideo }, 422, 'collection'],
      ['no source', { video: {}, collection: 'mine' }, 422, 'video'],
      ['two sources', { video: { ...okVideo, path: '/tmp/x' }, collection: 'mine' }, 422, 'video'],
      ['three sources', { video: { ...okVideo, path: '/x', content: 'f' }, collection: 'mine' }, 422, 'video'],
      ['empty url', { video: { url: '' }, collection: 'mine' }, 422, 'video.url'],
      ['url not http', { video: { url: 'file:///etc/passwd' }, collection: 'mine' }, 422, 'video.url'],
      ['url not a uri', { video: { url: 'hello world' }, collection: 'mine' }, 422, 'video.url'],
      ['media_id too long', { video: { ...okVideo, media_id: 'm'.repeat(37) }, collection: 'mine' }, 422, 'video.media_id'],
      ['media_id pattern', { video: { ...okVideo, media_id: 'a/b' }, collection: 'mine' }, 422, 'video.media_id'],
      ['media_id empty', { video: { ...okVideo, media_id: '' }, collection: 'mine' }, 422, 'video.media_id'],
      ['metadata not object', { video: { ...okVideo, additional_metadata: [1] }, collection: 'mine' }, 422, 'video.additional_metadata'],
      ['unknown video field', { video: { ...okVideo, colour: 'red' }, collection: 'mine' }, 422, 'video.colour'],
      ['collection pattern', { video: okVideo, collection: 'no spaces' }, 422, 'collection'],
      ['collection too long', { video: okVideo, collection: 'c'.repeat(101) }, 422, 'collection'],
      ['language', { video: okVideo, collection: 'mine', index_language: 'fr' }, 422, 'index_language'],
      ['reindex type', { video: okVideo, collection: 'mine', reindex_if_exists: 'yes' }, 422, 'reindex_if_exists'],
      ['unknown collection', { video: okVideo, collection: 'nope' }, 404, 'nope'],
      ['other owner private', { video: okVideo, collection: 'admins-private' }, 404, 'admins-private'],
      ['public of another owner', { video: okVideo, collection: 'shared' }, 403, 'shared'],
      ['path outside roots', { video: { path: '/etc/passwd' }, collection: 'mine' }, 422, 'video.path'],
      ['relative path', { video: { path: '../etc/passwd' }, collection: 'mine' }, 422, 'video.path'],
      ['symlink escaping root', { video: { path: join(media, 'escape.mp4') }, collection: 'mine' }, 422, 'video.path'],
      ['missing file', { video: { path: join(media, 'none.mp4') }, collection: 'mine' }, 422, 'video.path'],
      ['content without upload', { video: { content: 'x.mp4' }, collection: 'mine' }, 422, 'video.content'],
      ['body is an array', [1, 2], 422, '(body)'],
      ['body is a number', 5, 422, '(body)'],
    ];
    for (const [what, body, status, mention] of cases) {
      const r = await index(body);
      expect(r.status, what).toBe(status);
      expect(r.headers.get('content-type'), what).toMatch(/application\/json/);
      expect(r.body.code, what).toBeTruthy();
      const named = JSON.stringify(r.body.errors ?? []) + r.body.detail;
      expect(named, what).toContain(mention);
    }
  });

  it('rejects malformed envelopes: no body field, broken JSON, wrong content type, no key', async () => {
    const noField = await s.call('POST', '/index', { key: user, body: new URLSearchParams({ other: '{}' }) });
    expect(noField.status).toBe(422);
    expect(noField.body.errors[0].field).toBe('body');
    const broken = await s.call('POST', '/index', { key: user, form: '{"video": ' });
    expect(broken.status).toBe(400);
    expect(broken.body.detail).toMatch(/not valid JSON/);
    const text = await s.call('POST', '/index', { key: user, body: 'hello', headers: { 'content-type': 'text/plain' } });
    expect(text.status).toBe(415);
    const none = await s.call('POST', '/index', { key: user, body: 'x' , headers: { 'content-type': '' } });
    expect(none.status).toBe(415);
    const badMultipart = await s.call('POST', '/index', { key: user, body: 'garbage', headers: { 'content-type': 'multipart/form-data; boundary=zzz' } });
    expect(badMultipart.status).toBe(400);
    const noBoundary = await s.call('POST', '/index', { key: user, body: 'garbage', headers: { 'content-type': 'multipart/form-data' } });
    expect(noBoundary.status).toBe(400);
    expect((await s.call('POST', '/index', { key: null, form: {} })).status).toBe(401);
    const big = await s.call('POST', '/analyze', { key: user, form: { video: { url: 'https://127.0.0.1:1/v.mp4', title: 't'.repeat(2 * 1024 * 1024) } } });
    expect(big.status).toBe(413);
  });

  it('validates /analyze like /index, without a collection', async () => {
    expect((await s.call('POST', '/analyze', { key: user, form: { video: { url: 'https://127.0.0.1:1/v.mp4' } } })).status).toBe(202);
    const extra = await s.call('POST', '/analyze', { key: user, form: { video: { url: 'https://127.0.0.1:1/v.mp4' }, collection: 'mine' } });
    expect(extra.status).toBe(422);
    expect(extra.body.errors[0].field).toBe('collection');
  });

  it('validates the search endpoints and looks the collection up by the public rules', async () => {
    const search = (path: string, body: unknown, key = user) => s.call('POST', path, { key, form: body });
    for (const [body, field] of [
      [{ collection: 'mine' }, 'query'],
      [{ query: '', collection: 'mine' }, 'query'],
      [{ query: '   ', collection: 'mine' }, 'query'],
      [{ query: 'x', collection: 'bad id' }, 'collection'],
      [{ query: 'x', collection: 'mine', limit: 0 }, 'limit'],
      [{ query: 'x', collection: 'mine', threshold: 2 }, 'threshold'],
    ] as const) {
      const r = await search('/search', body);
      expect(r.status, JSON.stringify(body)).toBe(422);
      expect(r.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    expect((await search('/search', { query: 'x', collection: 'admins-private' })).status).toBe(404);
    expect((await search('/search_clusters', { query: 'x', collection: 'mine', search_language: 'fr' })).status).toBe(422);
    expect((await s.call('POST', '/search_clusters?defer=perhaps', { key: user, form: { query: 'x', collection: 'mine' } })).status).toBe(422);
    expect((await search('/search_clusters', { query: 'x', collection: 'shared' })).status).toBe(404);
    expect((await search('/collection_suggestions', { collection: 'admins-private', search_public_collections: true })).status).toBe(404);
    expect((await search('/collection_suggestions', { collection: 'mine', search_public_collections: 'no' })).status).toBe(422);
  });

  it('answers an unknown route with a JSON 404', async () => {
    const r = await s.call('GET', '/nope', { key: user });
    expect(r.status).toBe(404);
    expect(r.body.code).toBe('not_found');
  });
});
