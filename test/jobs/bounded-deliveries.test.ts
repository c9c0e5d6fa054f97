/**
 * Issue 43, nobody stalls everyone: a worker delivery is checked from its headers and path before its body
 * is read, read as it streams with a running limit, at most a few at once per worker key; worker ids are
 * compared without case and never start with `local`. Worker keys driven by hand (test/support/hand-worker.ts),
 * bodies sent piece by piece from a raw node:http client (test/support/slow-body.ts); everything on 127.0.0.1.
 */
import { join } from 'node:path';
import { request, type ClientRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeVideo } from '../support/folder-media.js';
import { analysisOf, handWorker, jpeg, type HandWorker } from '../support/hand-worker.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { pieces, slowPost, type SlowAnswer } from '../support/slow-body.js';
import { settledTask, startTestServer, waitFor, type TestServer } from '../support/server.js';

const MiB = 1024 * 1024;
const BOUNDARY = 'vidx-test-boundary';

/** The start of a multipart delivery whose `body` is a file part of JSON lines. */
function linesPart(firstLine: string): string {
  return `--${BOUNDARY}\r\ncontent-disposition: form-data; name="body"; filename="body.jsonl"\r\ncontent-type: application/x-ndjson\r\n\r\n${firstLine}\n`;
}

/** A request sent again (up to 3 times) while the server's reset overtook its answer (see slowPost). */
async function answered(send: () => Promise<SlowAnswer>): Promise<SlowAnswer> {
  let r = await send();
  for (let i = 0; i < 2 && r.status === 0; i++) r = await send();
  return r;
}

describe('bounded worker deliveries', () => {
  let redis: TestRedis;
  let s: TestServer;
  let a: HandWorker;
  let b: HandWorker;
  let job: string;
  let beats: { stop(): void } | null = null;
  const open: ClientRequest[] = [];

  const headers = (key: string, extra: Record<string, string> = {}) => ({ 'x-api-key': key, 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, ...extra });
  const result = (id: string) => `/worker/jobs/${id}/result`;
  const head = (worker: string, files: string[] = []) => JSON.stringify({ worker, files, analysis: { ...analysisOf('LINES'), transcript: [], episodes: [] } });

  beforeAll(async () => {
    redis = await startRedis();
    s = await startTestServer({ env: { VIDX_QUEUE_URL: redis.url, VIDX_LOCAL_WORKERS: '0' } });
    await makeVideo(join(s.mediaDir, 'clip.mp4'), 'BOUNDED', 2);
    [a, b] = await Promise.all(['da', 'db'].map((id) => handWorker(s, id)));
    await Promise.all([a.beat(), b.beat()]);
    const task = (await s.call('POST', '/analyze', { json: { video: { path: join(s.mediaDir, 'clip.mp4') } } })).body.task_id as string;
    job = await waitFor(() => (s.vidx.store.db.prepare('SELECT job_id FROM analysis_jobs WHERE task_id = ?').get(task) as { job_id: string } | undefined)?.job_id, 20_000, 'the job');
    beats = a.keepBeating([job]);
    expect((await a.start(job)).body.status).toBe('ready');
  }, 60_000);
  afterAll(async () => {
    beats?.stop();
    for (const r of open) r.destroy();
    await s?.close();
    await redis?.stop();
  });

  it('refuses a delivery from its headers and path before reading its body', async () => {
    // Each announces 200 MiB and sends 64 KiB every 10 ms: the answer comes after the first pieces.
    const slowly = (key: string, path: string, extra: Record<string, string> = {}, declared = 200 * MiB) =>
      slowPost(s.url, path, headers(key, { 'content-length': String(declared), ...extra }), { next: pieces(Buffer.from(linesPart(head(a.id))), declared, 64 * 1024), everyMs: 10 });

    const madeUp = await slowly(a.key, result(`${job.slice(0, 36)}-made-up-cache-key`));
    expect(madeUp.status).toBe(200);
    expect(madeUp.body.status).toBe('gone');
    const notHeld = await slowly(b.key, result(job));
    expect(notHeld.status).toBe(403);
    expect(notHeld.body.code).toBe('job_not_held');
    const otherName = await slowly(a.key, result(job), { 'x-vidx-worker': 'db' });
    expect(otherName.status).toBe(403);
    expect(otherName.body.code).toBe('worker_id_mismatch');
    const tooLarge = await slowly(a.key, result(job), {}, 300 * MiB);
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body).toMatchObject({ code: 'payload_too_large', detail: expect.stringContaining(String(256 * MiB)) });
    for (const r of [madeUp, notHeld, otherName, tooLarge]) {
      expect(r.sentBeforeAnswer).toBeLessThan(2 * MiB);
      expect(r.headers.connection).toBe('close');
    }
  });

  it('cuts a delivery off while it streams, as soon as a line or the whole passes its limit', async () => {
    // A second line of 40 MiB: refused once 16 MiB of it came, with no Content-Length to go by.
    const line = await answered(() => slowPost(s.url, result(job), headers(a.key), { next: pieces(Buffer.from(linesPart(head(a.id))), 40 * MiB, MiB), everyMs: 1 }));
    expect(line.status).toBe(413);
    expect(line.body.detail).toContain('line 2');
    expect(line.sentBeforeAnswer).toBeLessThan(40 * MiB);

    // Files of 8,000,000 bytes each (about the most one may have), 64 of them (512 MB): refused as it passes 256 MiB.
    const names = Array.from({ length: 64 }, (_, i) => `ep-${i}.jpg`);
    let part = 0;
    let inPart = 0;
    const FILE = 8_000_000;
    const next = (): Buffer | null => {
      if (part === 0 && inPart === 0) {
        inPart = 1;
        return Buffer.from(linesPart(head(a.id, names)));
      }
      if (part >= names.length) return null;
      if (inPart === 1) {
        inPart = 2;
        return Buffer.from(`\r\n--${BOUNDARY}\r\ncontent-disposition: form-data; name="${names[part]}"; filename="${names[part]}"\r\ncontent-type: image/jpeg\r\n\r\n`);
      }
      const piece = Buffer.alloc(Math.min(MiB, FILE - (inPart - 2)), 0xff);
      inPart += piece.length;
      if (inPart - 2 >= FILE) {
        part++;
        inPart = 1;
      }
      return piece;
    };
    const whole = await answered(() => {
      part = 0;
      inPart = 0;
      return slowPost(s.url, result(job), headers(a.key), { next, everyMs: 1 });
    });
    expect(whole.status, JSON.stringify(whole.body)).toBe(413);
    expect(whole.body.detail).toContain(String(256 * MiB));
    // The answer came soon after the limit was passed, not at the end (what the kernel's buffers held counted in).
    expect(whole.sentBeforeAnswer).toBeLessThan(320 * MiB);
    // Nothing of either stayed behind.
    const left = await waitFor(async () => {
      const { readdirSync } = await import('node:fs');
      const names = readdirSync(join(s.dataDir, 'uploads')).filter((n) => n.startsWith('delivery-'));
      return names.length === 0 ? names : undefined;
    }, 10_000, 'the delivery folders to go');
    expect(left).toEqual([]);
  }, 60_000);

  it('answers 429 with Retry-After to a worker key with too many requests in flight', async () => {
    beats?.stop();
    // Two deliveries that pass their checks and then wait for their body: in flight. The key's worker
    // announced 1 job at once: 1 + VIDX_WORKER_SPARE_REQUESTS (1) requests at once.
    for (let i = 0; i < 2; i++) {
      const req = request({ host: '127.0.0.1', port: new URL(s.url).port, method: 'POST', path: result(job), headers: headers(a.key) });
      req.on('error', () => {});
      req.write(`--${BOUNDARY}\r\ncontent-disposition: form-data; name="body"\r\n\r\n{`);
      open.push(req);
    }
    // A third, sent until the two are counted (a body that is no delivery: were it read, it would be refused otherwise).
    const third = await waitFor(async () => {
      const r = await s.call('POST', result(job), { key: a.key, body: 'not a delivery', headers: { 'content-type': 'text/plain' } });
      return r.status === 429 ? r : undefined;
    }, 10_000, 'a 429');
    expect(third.body).toMatchObject({ code: 'worker_busy', detail: expect.stringContaining('2 requests in flight') });
    expect(third.headers.get('retry-after')).toBe('1');
    // Other keys are not held up.
    expect((await b.beat()).status).toBe(200);
    for (const r of open.splice(0)) r.destroy();
    // Once they are gone, the key is answered again.
    await waitFor(async () => ((await a.beat()).status === 200 ? true : undefined), 10_000, 'the key answered again');
    beats = a.keepBeating([job]);
  });

  it('compares worker ids without case: WA and wa are one worker, and the first key keeps it', async () => {
    const first = await handWorker(s, 'WA');
    const second = await handWorker(s, 'wa');
    expect((await first.beat()).status).toBe(200);
    const taken = await second.beat();
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({ code: 'worker_id_taken', errors: [{ field: 'id' }] });
    // The first key's worker may name itself in any case; it is shown as it was fixed.
    expect((await first.beat({ id: 'wA' })).status).toBe(200);
    const shown = (await s.call('GET', '/workers')).body.workers.filter((w: { id: string }) => w.id.toLowerCase() === 'wa');
    expect(shown.map((w: { id: string }) => w.id)).toEqual(['WA']);
    const made = await s.call('POST', '/keys', { json: { name: 'twin', role: 'worker', worker_id: 'Wa' } });
    expect(made.status).toBe(422);
    expect(made.body.errors[0]).toMatchObject({ field: 'worker_id', message: 'belongs to another key' });
  });

  it('keeps two keys fixed before the upgrade to ids that differ only in case, each its own', async () => {
    const [up, low] = await Promise.all([handWorker(s, 'OLD'), handWorker(s, 'old')]);
    // What an older vidx could store: both fixed, to ids that differ only in case.
    const fix = s.vidx.store.db.prepare('UPDATE api_keys SET worker_id = ? WHERE name = ?');
    fix.run('OLD', 'hand-OLD');
    fix.run('old', 'hand-old');
    expect((await up.beat()).status).toBe(200);
    expect((await low.beat()).status).toBe(200);
    expect((await low.beat({ id: 'OLD' })).status).toBe(200);
  });

  it('refuses worker ids that start with local, in any case, for heartbeats and keys, in German too', async () => {
    const w = await handWorker(s, 'x');
    for (const id of ['local', 'local-1', 'LOCAL-2', 'localhost']) {
      const r = await w.beat({ id });
      expect(r.status, id).toBe(403);
      expect(r.body).toMatchObject({ code: 'worker_id_reserved', errors: [{ field: 'id' }] });
      expect(r.body.detail).toContain('"local"');
    }
    const german = await s.call('POST', '/worker/heartbeat', {
      key: w.key, headers: { 'accept-language': 'de' },
      json: { id: 'Local-3', host: 'h', version: '0', concurrency: 1, models: {}, queue: 'q', jobs: [] },
    });
    expect(german.body.detail).toContain('vorbehalten');
    const made = await s.call('POST', '/keys', { json: { name: 'bad', role: 'worker', worker_id: 'Local-2' } });
    expect(made.status).toBe(422);
    expect(made.body.errors[0].field).toBe('worker_id');
    // A key an older vidx fixed to such an id is refused with the same words.
    const old = await handWorker(s, 'local-9');
    s.vidx.store.db.prepare('UPDATE api_keys SET worker_id = ? WHERE name = ?').run('local-9', 'hand-local-9');
    expect((await old.beat()).body.code).toBe('worker_id_reserved');
    expect((await old.start(job)).body.code).toBe('worker_id_reserved');
  });

  it('stores a big delivery in slices while /health keeps answering, and shows it whole', async () => {
    expect((await s.call('POST', '/collections', { json: { collection_id: 'big', name: 'Big' } })).status).toBe(201);
    const task = (await s.call('POST', '/index', { json: { collection: 'big', video: { path: join(s.mediaDir, 'clip.mp4') } } })).body.task_id as string;
    const bigJob = await waitFor(() => (s.vidx.store.db.prepare('SELECT job_id FROM analysis_jobs WHERE task_id = ?').get(task) as { job_id: string } | undefined)?.job_id, 20_000, 'the job');
    beats?.stop();
    beats = a.keepBeating([job, bigJob]);
    expect((await a.start(bigJob)).body.status).toBe('ready');
    // 2,000 episodes of 5 lines of 1,000 characters: about 10 MB of text, each episode's well within its bound.
    const words = ['heron', 'willow', 'meadow', 'harbour', 'lantern', 'orchard', 'pebble', 'thistle'];
    const line = (e: number, i: number) => Array.from({ length: 140 }, (_, k) => words[(e + i + k) % words.length]).join(' ').slice(0, 1_000);
    const episodes = Array.from({ length: 2_000 }, (_, e) => ({
      index: e, start: e, end: e + 1, visual: [], summary: `episode ${e}`, thumbnail: e === 0 ? 'ep-0.jpg' : null, thumbnailTime: e,
      audio: Array.from({ length: 5 }, (_, i) => ({ start: e + i / 5, end: e + (i + 1) / 5, text: e === 1_999 && i === 4 ? 'the very last kingfisher' : line(e, i) })),
    }));
    const analysis = { ...analysisOf('BIG'), duration: 2_000, transcript: [], episodes };
    expect((await a.deliverLines(bigJob, analysis, { 'ep-0.jpg': await jpeg() })).body).toEqual({ status: 'committed' });
    // While its rows are written (the item staged), /health answers again and again.
    let answered = 0;
    const storing = () => s.vidx.store.db.prepare("SELECT count(*) FROM staged_items WHERE purpose = 'storing'").pluck().get() as number;
    await waitFor(async () => {
      if (storing() === 0) return undefined;
      const health = await s.call('GET', '/health', { key: null });
      if (health.status === 200 && storing() > 0) answered++;
      return answered >= 5 ? true : undefined;
    }, 60_000, 'five answers of /health while the delivery is stored');
    const done = await settledTask(s, task, 120_000);
    expect(done.status, JSON.stringify(done.error)).toBe('completed');
    const hits = (await s.call('POST', '/search', { form: { collection: 'big', query: 'kingfisher' } })).body.results;
    expect(hits.map((h: { start_time: number }) => h.start_time)).toEqual([1_999.8]);
    const item = (await s.call('GET', '/collections/big/items')).body.items[0];
    expect((await s.call('GET', `/collections/big/items/${item.media_id}/analysis`)).body.episodes).toHaveLength(2_000);
  }, 180_000);

  it('checks a delivery in one JSON object as before', async () => {
    const one = await a.deliver(`${job.slice(0, 36)}-other-cache-key`, analysisOf('ONE'), { 'ep-0.jpg': await jpeg() });
    expect(one.body.status).toBe('gone');
    const bad = await a.deliver(job, { ...analysisOf('BAD'), transcript: [{ start: 0, end: 1, text: 'x'.repeat(30_000) }] }, { 'ep-0.jpg': await jpeg() });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].field).toBe('analysis.transcript.0.text');
  });
});
