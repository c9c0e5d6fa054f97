/**
 * Issue 32's tests speak the worker protocol by hand where a real `vidx worker` would not misbehave: a
 * worker key that heartbeats, starts, reports and delivers exactly what a test says.
 */
import sharp from 'sharp';
import type { StoredAnalysis } from '../../src/analysis/cache.js';
import { deliveryLines } from '../../src/services/jobs/delivery-lines.js';
import type { TestServer } from './server.js';

// `any` on purpose, as in server.ts: tests assert on body fields directly, and a wrong guess fails the assertion.
type Answer = Promise<{ status: number; body: any }>;

/** A worker key used by hand. */
export interface HandWorker {
  key: string;
  id: string;
  /** One heartbeat (its answer), as `id` unless told otherwise. */
  beat(over?: Record<string, unknown>): Answer;
  /** Heartbeats every second until `stop`: a live worker that names `jobs`. */
  keepBeating(jobs?: string[]): { stop(): void };
  start(job: string, worker?: string): Answer;
  progress(job: string, fraction: number): Answer;
  deliver(job: string, analysis: Record<string, unknown>, files?: Record<string, Uint8Array>, worker?: string): Answer;
  /** Delivers as `vidx worker` does: the analysis as JSON lines, the worker named in a header. */
  deliverLines(job: string, analysis: Record<string, unknown>, files?: Record<string, Uint8Array>): Answer;
}

/**
 * A worker key made on `s`, used by hand as the worker `id` on the server's queue.
 * @example
 * const a = await handWorker(s, 'fa');
 * await a.beat();
 */
export async function handWorker(s: TestServer, id: string): Promise<HandWorker> {
  const r = await s.call('POST', '/keys', { json: { name: `hand-${id}`, role: 'worker' } });
  if (r.status !== 201) throw new Error(JSON.stringify(r.body));
  const key = r.body.key as string;
  const queue = (await s.call('GET', '/worker/setup', { key })).body.queue as string;
  const beat = (over: Record<string, unknown> = {}) =>
    s.call('POST', '/worker/heartbeat', { key, json: { id, host: 'hand', version: '0', concurrency: 1, models: {}, queue, jobs: [], ...over } });
  return {
    key,
    id,
    beat,
    keepBeating(jobs = []) {
      void beat({ jobs });
      const timer = setInterval(() => void beat({ jobs }), 1_000);
      return { stop: () => clearInterval(timer) };
    },
    start: (job, worker = id) => s.call('POST', `/worker/jobs/${job}/start`, { key, json: { worker } }),
    progress: (job, fraction) => s.call('POST', `/worker/jobs/${job}/progress`, { key, json: { worker: id, fraction, stage: 'by hand' } }),
    deliver(job, analysis, files = {}, worker = id) {
      const form = new FormData();
      form.set('body', JSON.stringify({ worker, files: Object.keys(files), analysis }));
      for (const [name, bytes] of Object.entries(files)) form.append(name, new Blob([new Uint8Array(bytes)]), name);
      return s.call('POST', `/worker/jobs/${job}/result`, { key, body: form });
    },
    deliverLines(job, analysis, files = {}) {
      const form = new FormData();
      const lines = [...deliveryLines({ worker: id, files: Object.keys(files) }, analysis as unknown as StoredAnalysis)].map((l) => `${l}\n`);
      form.set('body', new Blob(lines, { type: 'application/x-ndjson' }), 'body.jsonl');
      for (const [name, bytes] of Object.entries(files)) form.append(name, new Blob([new Uint8Array(bytes)]), name);
      return s.call('POST', `/worker/jobs/${job}/result`, { key, body: form, headers: { 'x-vidx-worker': id } });
    },
  };
}

/**
 * A small analysis as a worker would deliver it, with one episode whose thumbnail is `ep-0.jpg`.
 * @example
 * await a.deliver(job, analysisOf('FORGED'), { 'ep-0.jpg': await jpeg() });
 */
export function analysisOf(title: string, transcript = 'hello'): Record<string, unknown> {
  return {
    type: 'video', duration: 2, language: 'en', title, transcript: [{ start: 0, end: 1, text: transcript }], transcriptSource: 'asr', screenText: [], visual: [],
    episodes: [{ index: 0, start: 0, end: 2, audio: [], visual: [], summary: title, thumbnail: 'ep-0.jpg', thumbnailTime: 1 }],
    summary: title, warnings: [], passageVectors: null, frameVectors: null,
  };
}

/**
 * A real JPEG picture.
 * @example
 * const bytes = await jpeg();
 */
export async function jpeg(width = 64, height = 36): Promise<Uint8Array> {
  return new Uint8Array(await sharp({ create: { width, height, channels: 3, background: 'teal' } }).jpeg().toBuffer());
}
