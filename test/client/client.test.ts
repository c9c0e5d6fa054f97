/**
 * The typed client (src/client) against a real vidx on 127.0.0.1: answers come back parsed, a refused request
 * is a VidxError with the API's status, code and detail, headers can follow the caller's language, uploads are
 * multipart (a query picture too), and streamed answers come element by element with a failure midway thrown. A custom `fetch` is
 * what the MCP route uses to call the app in-process; here it also stands in for a stream that breaks.
 */
import sharp from 'sharp';
import { deadPort } from '../support/dead-port.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVidxClient, VidxError, type VidxClient } from '../../src/client/index.js';
import { settledTask, startTestServer, type TestServer } from '../support/server.js';

let s: TestServer;
let vidx: VidxClient;

beforeAll(async () => {
  s = await startTestServer();
  vidx = createVidxClient({ baseUrl: s.url, key: s.adminKey });
});

afterAll(() => s?.close());

/** What a call threw (fails the test when it did not throw). */
async function thrown(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => expect.fail('expected the call to throw'),
    (err: unknown) => err,
  );
}

describe('createVidxClient', () => {
  it('sends typed requests and answers with the parsed body', async () => {
    const created = await vidx.POST('/collections', { body: { collection_id: 'trips', name: 'Trips' } });
    expect(created).toMatchObject({ collection_id: 'trips', name: 'Trips', is_public: false });
    const renamed = await vidx.PUT('/collections/{collection_id}', { params: { path: { collection_id: 'trips' } }, body: { name: 'Journeys' } });
    expect(renamed.name).toBe('Journeys');
    const { collections } = await vidx.GET('/collections', { params: { query: { public: false } } });
    expect(collections.map((c) => c.collection_id)).toContain('trips');
    const { results } = await vidx.POST('/search', { body: { collection: 'trips', query: 'lake' } });
    expect(results).toEqual([]);
  });

  it("throws a VidxError with the API's status, code and detail, and the fields that broke a rule", async () => {
    const missing = await thrown(vidx.GET('/collections/{collection_id}', { params: { path: { collection_id: 'nowhere' } } }));
    expect(missing).toBeInstanceOf(VidxError);
    expect(missing).toMatchObject({ status: 404, code: 'not_found', detail: 'collection "nowhere" not found', message: 'collection "nowhere" not found' });
    expect((missing as VidxError).requestId).toMatch(/\S/);

    const invalid = (await thrown(vidx.POST('/collections', { body: { collection_id: 'no spaces', name: 'x' } }))) as VidxError;
    expect(invalid.status).toBe(422);
    expect(invalid.errors.map((e) => e.field)).toContain('collection_id');

    const anonymous = createVidxClient({ baseUrl: s.url });
    expect(await thrown(anonymous.GET('/collections'))).toMatchObject({ status: 401, code: 'unauthorized' });
    expect(await anonymous.GET('/health')).toMatchObject({ status: 'ok' });
  });

  it('asks a headers function again for every request, and turns failures into the error the caller wants', async () => {
    let language = 'en';
    const mapped = createVidxClient({
      baseUrl: s.url,
      key: s.adminKey,
      headers: () => ({ 'accept-language': language }),
      error: (f) => new Error(`${f.detail} (HTTP ${f.status} ${f.code})`),
    });
    const path = { params: { path: { collection_id: 'nirgends' } } };
    expect(((await thrown(mapped.GET('/collections/{collection_id}', path))) as Error).message).toBe('collection "nirgends" not found (HTTP 404 not_found)');
    language = 'de';
    expect(((await thrown(mapped.GET('/collections/{collection_id}', path))) as Error).message).toBe('Sammlung „nirgends“ nicht gefunden (HTTP 404 not_found)');
  });

  it('uploads a file in the same multipart request as the index request', async () => {
    const { task_id } = await vidx.upload('/index', { collection: 'trips', video: { title: 'Not a video' } }, new Blob(['not a video at all']), 'notes.mp4');
    const task = await vidx.GET('/tasks/{task_id}', { params: { path: { task_id } } });
    expect(task.kind).toBe('index');
    if (task.kind !== 'index') return;
    expect(task.data.upload).toEqual({ filename: 'notes.mp4', size: 18 });
    expect(task.data.video.title).toBe('Not a video');
    // Text is no media: the task fails on its own; it must not stay running when the server closes.
    expect((await settledTask(s, task_id)).status).toBe('failed');
  });

  it('searches by a picture sent in the same multipart request, and names the field when it does not decode', async () => {
    const png = await sharp({ create: { width: 64, height: 36, channels: 3, background: '#205080' } }).png().toBuffer();
    expect(await vidx.searchByPicture({ collection: 'trips', query: 'lake' }, new Blob([new Uint8Array(png)]), 'shot.png')).toMatchObject({ results: [], corrected: [] });
    const err = (await thrown(vidx.searchByPicture({ collection: 'trips' }, new Blob(['not a picture']), 'shot.jpg'))) as VidxError;
    expect(err).toBeInstanceOf(VidxError);
    expect(err.status).toBe(422);
    expect(err.errors[0]?.field).toBe('image');
  });

  it('streams elements as they come through any fetch, and throws the failure a stream ends with', async () => {
    // The real endpoint over a recording fetch: an empty collection suggests nothing.
    const seen: string[] = [];
    const recording = createVidxClient({
      baseUrl: s.url,
      key: s.adminKey,
      fetch: (request) => {
        seen.push(`${request.method} ${new URL(request.url).pathname} ${request.headers.get('accept')}`);
        return fetch(request);
      },
    });
    const none = [];
    for await (const el of recording.stream('/collection_suggestions', { collection: 'trips' })) none.push(el);
    expect(none).toEqual([]);
    expect(seen).toEqual(['POST /collection_suggestions application/x-ndjson']);

    // A stream that sends two elements, then fails: the elements arrive, then the failure is thrown.
    const lines = [
      { completion: { type: 'topic', text: 'Lakes', media_ids: ['a'], moments: [] } },
      { completion: { type: 'question', text: 'Wo sind die schönen Seen?', media_ids: ['a'], moments: [] } },
      { error: { detail: 'search index is gone', code: 'stream_failed' } },
    ];
    const body = lines.map((l) => JSON.stringify(l)).join('\n');
    // Split inside a multi-byte character, to check that chunk edges do not break the text.
    const bytes = new TextEncoder().encode(body);
    const cut = bytes.indexOf(0xc3) + 1;
    const broken = createVidxClient({
      baseUrl: s.url,
      fetch: async () =>
        new Response(
          new ReadableStream<Uint8Array>({
            start(c) {
              c.enqueue(bytes.slice(0, cut));
              c.enqueue(bytes.slice(cut));
              c.close();
            },
          }),
          { status: 200, headers: { 'content-type': 'application/x-ndjson' } },
        ),
    });
    const texts: string[] = [];
    const failure = await thrown(
      (async () => {
        for await (const el of broken.stream('/collection_suggestions', { collection: 'trips' })) texts.push(el.completion.text);
      })(),
    );
    expect(texts).toEqual(['Lakes', 'Wo sind die schönen Seen?']);
    expect(failure).toMatchObject({ status: 200, code: 'stream_failed', detail: 'search index is gone' });
  });

  it('lets a failed connection through, or says why it failed in the error the caller wants', async () => {
    const baseUrl = `http://127.0.0.1:${await deadPort()}`;
    const err = await thrown(createVidxClient({ baseUrl }).GET('/health'));
    expect(err).toBeInstanceOf(TypeError);
    const said = await thrown(createVidxClient({ baseUrl, unreachable: (reason) => new Error(`no vidx: ${reason}`) }).GET('/health'));
    expect((said as Error).message).toBe('no vidx: ECONNREFUSED');
  });
});
