import { openAsBlob } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import pRetry from 'p-retry';
import { VidxError, type VidxClient } from '../client/index.js';
import { downloadFile } from '../ml/registry/download.js';
import type { JobPort, PreparedJob } from '../services/jobs/processor.js';
import { deliveryLines } from '../services/jobs/delivery-lines.js';
import { toWireAnalysis, WORKER_HEADER, type DeliveryAnswer, type JobNotReady } from '../services/jobs/wire.js';

/** Tries while the server is away (it may be restarting): pauses of 250 ms growing to 5 s. */
const BACKOFF = { minTimeout: 250, maxTimeout: 5_000, factor: 2 } as const;

/** A delivery the server answered `wait` (another delivery of it is being written): sent again. */
class DeliverAgain extends Error {}

/**
 * Whether a failed call may pass if tried again: no answer at all, the server's own trouble (5xx), or too
 * many requests of this key at once (429: one of them is still being answered).
 */
function passing(err: unknown): boolean {
  return !(err instanceof VidxError) || err.status >= 500 || err.status === 429;
}

/** Another worker holds the job (409 `job_held`): it may be ours once that worker's lease has run out. */
function heldElsewhere(err: unknown): boolean {
  return err instanceof VidxError && err.code === 'job_held';
}

/**
 * A signed link through the server as this worker reaches it: the server builds its links on its public or
 * listening address (`http://0.0.0.0:8484` when bound to every address), the worker knows it as `--server`.
 */
function viaServer(server: string, link: string): string {
  const path = new URL(link).pathname;
  return `${server.replace(/\/+$/, '')}${path.slice(path.indexOf('/files/'))}${new URL(link).search}`;
}

/** A file name as the server gave it, kept to one plain name inside the job's folder. */
function safeName(name: string, index: number): string {
  const base = basename(name);
  return base && base !== '.' && base !== '..' ? base : `file-${index}`;
}

/**
 * The server as `vidx worker` reaches it: the job endpoints over HTTP with its worker key, each job's media
 * and subtitle files downloaded through their signed links into `<jobs dir>/<job id>/` (resumed from a
 * `.part` after an interruption, checked for size), the analysis delivered as one multipart request. While
 * the server is away (restarting), starting a job says "wait" and a delivery is sent again until it is taken.
 * @example
 * const port = httpPort(client, 'http://nas:8484', 'desk-1a2b', '/home/me/.local/share/vidx-worker/jobs');
 * new Worker(queue, jobProcessor({ port, pool, workDir, models, running }), opts);
 */
export function httpPort(client: VidxClient, server: string, worker: string, jobsDir: string): JobPort {
  // One progress report per job at a time (a slow server gets no pile of them): the server allows a worker
  // key one request per job it runs, and its heartbeat, at once (VIDX_WORKER_SPARE_REQUESTS).
  const reporting = new Map<string, Promise<void>>();
  return {
    async start(jobId, signal): Promise<PreparedJob | JobNotReady> {
      let answer;
      try {
        answer = await client.POST('/worker/jobs/{job_id}/start', { params: { path: { job_id: jobId } }, body: { worker } });
      } catch (err) {
        if (passing(err)) return { status: 'wait', reason: `the server is not reachable: ${(err as Error).message}` };
        if (heldElsewhere(err)) return { status: 'wait', reason: (err as Error).message };
        throw err;
      }
      if (answer.status !== 'ready') return answer;
      const dir = join(jobsDir, jobId);
      await mkdir(dir, { recursive: true });
      const paths = answer.files.map((f, i) => join(dir, safeName(f.name, i)));
      for (const [i, f] of answer.files.entries()) await fetchFile(viaServer(server, f.url), paths[i]!, f.size, i === 0, signal);
      return { status: 'ready', kind: answer.kind, input: answer.input, file: paths[0]!, sourcePath: answer.path_source ? paths[0]! : null };
    },
    async progress(jobId, fraction, stage) {
      if (reporting.has(jobId)) return;
      const report = client
        .POST('/worker/jobs/{job_id}/progress', { params: { path: { job_id: jobId } }, body: { worker, fraction, stage } })
        .then(() => {})
        .finally(() => reporting.delete(jobId));
      reporting.set(jobId, report);
      await report;
    },
    async deliver(jobId, analysis, dir, signal): Promise<DeliveryAnswer> {
      await reporting.get(jobId)?.catch(() => {});
      const { analysis: wire, files } = toWireAnalysis(analysis);
      const send = async (): Promise<DeliveryAnswer> => {
        // The analysis as JSON lines (delivery-lines.ts): the server reads and checks it line by line.
        const form = new FormData();
        const lines = [...deliveryLines({ worker, files }, wire)].map((l) => `${l}\n`);
        form.set('body', new Blob(lines, { type: 'application/x-ndjson' }), 'body.jsonl');
        for (const name of files) form.append(name, await openAsBlob(join(dir, name)), name);
        const answer = await client.POST('/worker/jobs/{job_id}/result', { params: { path: { job_id: jobId } }, body: form as never, headers: { [WORKER_HEADER]: worker } });
        if (answer.status === 'wait') throw new DeliverAgain(answer.reason ?? 'wait');
        return answer;
      };
      return pRetry(send, { ...BACKOFF, retries: Number.POSITIVE_INFINITY, signal, shouldRetry: ({ error }) => error instanceof DeliverAgain || passing(error) });
    },
    async finish(jobId) {
      await rm(join(jobsDir, jobId), { recursive: true, force: true });
    },
  };
}

/**
 * Downloads one file of a job with a few tries (each resumes the `.part`). The media must arrive; a subtitle
 * file the server will not give (it leads outside the media roots) is left out, as the server would skip it.
 */
async function fetchFile(url: string, dest: string, size: number, required: boolean, signal: AbortSignal): Promise<void> {
  try {
    await pRetry(() => downloadFile(url, dest, { size, signal }), {
      ...BACKOFF, retries: 4, signal,
      shouldRetry: ({ error }) => (error as { retryable?: boolean }).retryable !== false,
    });
  } catch (err) {
    if (signal.aborted) throw err;
    if (!required) return;
    throw new Error(`the media of this job could not be downloaded from the server: ${(err as Error).message}`);
  }
}
