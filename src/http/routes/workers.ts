import { msg } from '../../messages/index.js';
import { rmSync } from 'node:fs';
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv, App, HttpDeps } from '../env.js';
import { adminOnly } from '../middleware/auth/index.js';
import { readDelivery } from '../delivery-body.js';
import { errors, jsonResponse, SECURITY } from '../schemas/common.js';
import { DeliveryAnswer, DeliveryBody, DELIVERY_LIMITS, HeartbeatAnswer, JobParams, JobStartAnswer, JobStartBody, ProgressAnswer, ProgressBody, WorkerAnnouncement, WorkerId, WorkerList, WorkerModels, WorkerSetup } from '../schemas/workers.js';
import { fileResponse } from '../send-file.js';
import { Problem } from '../../services/errors.js';
import type { JobBroker } from '../../services/jobs/broker.js';
import { WORKER_HEADER } from '../../services/jobs/wire.js';

const tags = ['workers'];

/** What every job endpoint may answer besides its own: a worker key with too many requests in flight. */
const BUSY =
  'A worker key has at most its worker’s announced concurrency + `VIDX_WORKER_SPARE_REQUESTS` (default 1) requests in flight at once; one more answers 429 `worker_busy` with `Retry-After` before its body is read.';
const json = <S extends z.ZodType>(schema: S) => ({ body: { required: true, content: { 'application/json': { schema } } } });

const setup = createRoute({
  method: 'get', path: '/worker/setup', operationId: 'workerSetup', tags, security: SECURITY,
  summary: "What a worker needs before it takes jobs: the server's queue prefix, its queue and models (worker key)",
  description: BUSY,
  responses: { 200: jsonResponse(WorkerSetup, 'The setup'), ...errors(401, 403, 409, 429) },
});

const heartbeat = createRoute({
  method: 'post', path: '/worker/heartbeat', operationId: 'workerHeartbeat', tags, security: SECURITY,
  summary: 'A worker says it is there, with its models and jobs (worker key)',
  description:
    'Every 2 s. The answer names the server’s queue and models, whether this worker takes its jobs, and which of its jobs to stop (their tasks were deleted). ' +
    'One worker key is one worker: the first heartbeat fixes the key’s worker id (unless the key was made with one); another id answers 403 `worker_id_mismatch`, ' +
    'an id starting with `local` in any case (the server’s own workers) 403 `worker_id_reserved`, an id another key has (compared without case: `WA` is `wa`) 409 `worker_id_taken`, and more jobs at once than the key may announce (default 8) 422 `concurrency_over_cap`. ' +
    'The worker is counted under its id as the key was fixed to it. The jobs it names and holds keep their lease. ' + BUSY,
  request: json(WorkerAnnouncement),
  responses: { 200: jsonResponse(HeartbeatAnswer, 'Counted'), ...errors(401, 403, 409, 422, 429) },
});

const start = createRoute({
  method: 'post', path: '/worker/jobs/{job_id}/start', operationId: 'startJob', tags, security: SECURITY,
  summary: 'A worker starts a job it took from the queue (worker key)',
  description:
    'Answers what to analyse, with signed links to the media and its subtitle files (valid for this job and key; HTTP ranges answered, so a download resumes); or wait (the server restarted and has not asked for the job again yet), or gone (drop it). ' +
    'The job is then this key’s: while its worker’s heartbeats name it, a start from another key answers 409 `job_held` with no links; once they stop (the lease runs out after about 7 s), another key may start it. ' +
    '`worker` must be the key’s worker (403 `worker_id_mismatch`; 409 `worker_not_announced` before its first heartbeat). ' + BUSY,
  request: { params: JobParams, ...json(JobStartBody) },
  responses: { 200: jsonResponse(JobStartAnswer, 'What to do'), ...errors(401, 403, 409, 422, 429) },
});

const deliver = createRoute({
  method: 'post', path: '/worker/jobs/{job_id}/result', operationId: 'deliverJob', tags, security: SECURITY,
  summary: 'A worker delivers a job’s analysis with its thumbnails and face crops (worker key)',
  description:
    'Multipart: the part `body` first, then one file part per name in `files`. `body` is a file part of JSON lines (`application/x-ndjson`, what `vidx worker` sends): the first line the Delivery with its long lists cut short, each further line `{"add": "<list>", "items": […]}` adding items to one list ' +
    '(`transcript`, `screenText`, `visual`, `episodes`, `episodes.<n>.audio`, `episodes.<n>.visual`, `subtitleTracks`, `subtitleTracks.<n>.segments`, `passageVectors.items`, `frameVectors.items`, `framePrints`, `faces`); or a field holding the Delivery in one JSON object (also as `application/json`, at most 1 MiB). ' +
    'Checked before any of it is read, from the path, the key and the header `x-vidx-worker` when sent: another key’s job 403 `job_not_held`, another worker 403 `worker_id_mismatch`, a `Content-Length` over 256 MiB 413, and an unknown, delivered or ended job answered (`gone`, `duplicate`) at once; such answers close the connection. ' +
    'Read as it streams: a line over 16 MiB, or the request past 256 MiB in all, answers 413 as soon as it is passed (nothing more is read); each line is checked as it comes (422 naming the field, e.g. `analysis.transcript.123.text`); an episode holding more than 1,000,000 characters of text answers 422 `episode_text_too_long` naming it. ' +
    'Committed once per job: a second delivery of the same job answers `duplicate` and commits nothing. Only the key that started the job delivers it. Each file must be a JPEG or WebP picture of at most 4096 pixels on a side and 8 MiB (422 `bad_thumbnail` naming it). ' +
    'A delivered analysis serves only the owner of its job: the analysis cache never hands it to another owner. ' + BUSY,
  request: {
    params: JobParams,
    headers: z.object({ [WORKER_HEADER]: WorkerId.optional().openapi({ description: 'The worker delivering (the key’s): checked before the body is read' }) }),
    body: {
      required: true,
      content: {
        'application/json': { schema: DeliveryBody },
        'multipart/form-data': {
          schema: z.object({
            body: z.string().openapi({ description: 'JSON lines of the Delivery (a file part, application/x-ndjson), or its JSON text (a field); it comes before the file parts' }),
            file: z.string().optional().openapi({ format: 'binary', description: 'One part per name in `files`, by that file name (ep-0.jpg, pic-0.jpg, face-0.jpg, …)' }),
          }),
        },
      },
    },
  },
  responses: { 200: jsonResponse(DeliveryAnswer, 'What became of it'), ...errors(400, 401, 403, 409, 413, 415, 422, 429) },
});

const progress = createRoute({
  method: 'post', path: '/worker/jobs/{job_id}/progress', operationId: 'jobProgress', tags, security: SECURITY,
  summary: 'The worker holding a job says how far it is (worker key)',
  description: `Only from the key that started the job (403 \`job_not_held\` otherwise); renews its lease. ${BUSY}`,
  request: { params: JobParams, ...json(ProgressBody) },
  responses: { 200: jsonResponse(ProgressAnswer, 'Passed on'), ...errors(401, 403, 409, 422, 429) },
});

const models = createRoute({
  method: 'get', path: '/worker/models', operationId: 'workerModels', tags, security: SECURITY,
  summary: 'The models the server analyses with (worker key): what `vidx worker --pull-models` pulls',
  responses: { 200: jsonResponse(WorkerModels, 'Its model pack'), ...errors(401, 403, 409, 429) },
});

const hub = createRoute({
  method: 'get', path: '/worker/hub/{path}', operationId: 'workerModelFile', tags, security: SECURITY,
  summary: 'A file of a model the server uses, laid out like a model hub (worker key; ranges answered)',
  request: { params: z.object({ path: z.string().openapi({ param: { name: 'path', in: 'path' }, description: '<owner>/<name>/resolve/<revision>/<file path>; may contain slashes' }) }) },
  responses: { 200: { description: 'The file', content: { 'application/octet-stream': { schema: z.string().openapi({ format: 'binary' }) } } }, 206: { description: 'The range asked for' }, ...errors(401, 403, 404, 409, 429) },
});

const list = createRoute({
  method: 'get', path: '/workers', operationId: 'listWorkers', tags, security: SECURITY, middleware: adminOnly(),
  summary: 'The live workers: id, key (its id and name), host, version, models, concurrency, current jobs, last seen (admin)',
  responses: { 200: jsonResponse(WorkerList, 'Workers and the queue (empty, and queue null, without VIDX_QUEUE_URL)'), ...errors(401, 403) },
});

function brokerOf(deps: HttpDeps): JobBroker {
  if (!deps.jobs) throw new Problem('conflict', msg('no_job_queue'));
  return deps.jobs;
}

/**
 * The job endpoints of `vidx worker` (worker keys only) and `GET /workers` (admins).
 * @example
 * workerRoutes(app, deps);
 */
export function workerRoutes(app: App, deps: HttpDeps): void {
  app.openapi(setup, (c) => c.json(brokerOf(deps).setup(), 200));
  app.openapi(heartbeat, (c) => c.json(brokerOf(deps).heartbeat(c.req.valid('json'), c.get('caller').id), 200));
  app.openapi(start, (c) => {
    const { job_id } = c.req.valid('param');
    const broker = brokerOf(deps);
    const answer = broker.startJob(job_id, broker.holderOf(c.get('caller').id, c.req.valid('json').worker));
    if (answer.status !== 'ready') return c.json(answer, 200);
    // Each link opens one file of this job, for this worker key only, while a task waits for the job.
    const key = c.get('caller').id;
    const files = answer.files.map((f, i) => ({ name: f.name, size: f.size, url: deps.links.file(`jobs/${job_id}/${i}`, key)! }));
    return c.json({ ...answer, files }, 200);
  });
  app.openapi(progress, (c) => {
    const broker = brokerOf(deps);
    const { worker, fraction, stage } = c.req.valid('json');
    return c.json(broker.progress(c.req.valid('param').job_id, broker.holderOf(c.get('caller').id, worker), fraction, stage), 200);
  });
  app.openAPIRegistry.registerPath(deliver);
  app.post('/worker/jobs/:job_id/result', async (c) => {
    try {
      return c.json(await receiveDelivery(c, deps, c.req.param('job_id')), 200);
    } catch (err) {
      // A refused delivery is not read on: the rest of its body stays unread, and the connection goes with the answer.
      c.header('connection', 'close');
      throw err;
    }
  });
  app.openapi(models, (c) => {
    const broker = brokerOf(deps);
    return c.json({ models: broker.pack.entries() as unknown as Record<string, unknown>[], capabilities: deps.health().capabilities }, 200);
  });
  app.openAPIRegistry.registerPath(hub);
  app.get('/worker/hub/*', async (c) => {
    let path: string;
    try {
      path = decodeURIComponent(c.req.path.slice('/worker/hub/'.length));
    } catch {
      throw new Problem('bad_request', msg('model_path_malformed'));
    }
    const file = brokerOf(deps).pack.file(path);
    if (!file) throw new Problem('not_found', msg('model_file_unknown'));
    return fileResponse(await deps.servedFiles.openModelFile(file).catch(() => Promise.reject(new Problem('not_found', msg('model_file_missing')))), c.req.header('range'), 'application/octet-stream');
  });
  app.openapi(list, (c) => c.json(deps.jobs ? deps.jobs.workers() : { workers: [], queue: null }, 200));
}

/**
 * A delivery: checked before any of it is read (its size as declared, the key, the worker and the job
 * from the headers and the path; an answer that takes nothing of it is given at once), then read as it
 * streams in (see readDelivery), handed to the broker, and whatever it did not take removed.
 */
async function receiveDelivery(c: Context<AppEnv>, deps: HttpDeps, jobId: string) {
  const broker = brokerOf(deps);
  const declared = c.req.header('content-length');
  if (declared !== undefined && Number(declared) > DELIVERY_LIMITS.requestBytes) throw new Problem('too_large', msg('delivery_too_large', { max: DELIVERY_LIMITS.requestBytes }));
  const keyId = c.get('caller').id;
  const { holder, answer } = broker.beforeDelivery(jobId, keyId, c.req.header(WORKER_HEADER) || undefined);
  if (answer) {
    // Nothing of the body is read: the connection goes with the answer.
    c.header('connection', 'close');
    return answer;
  }
  const d = await readDelivery(c, deps.form.uploadsDir, (head) => broker.holderOf(keyId, head.worker));
  try {
    return await broker.deliver(jobId, holder, { wire: d.analysis, dir: d.dir, files: d.files, lines: d.lines });
  } finally {
    rmSync(d.dir, { recursive: true, force: true });
  }
}
