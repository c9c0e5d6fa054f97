import { z } from '@hono/zod-openapi';
import { CapabilityInfo } from './models.js';
import { DELIVERED_FILE } from '../../services/jobs/wire.js';

/** A worker's name: letters, digits, `.`, `_` and `-`. */
export const WorkerId = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'must match ^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$').openapi({ example: 'desk-1a2b' });

const ModelSetSchema = z
  .record(z.string(), z.object({ available: z.boolean(), model: z.string().optional() }))
  .openapi({ description: 'Each capability (ocr, vad, asr, …): whether it is available and with which model; the queue is named after this set' });

export const WorkerAnnouncement = z
  .object({
    id: WorkerId,
    host: z.string().max(255),
    version: z.string().max(50),
    concurrency: z.number().int().min(1).max(64),
    models: ModelSetSchema,
    queue: z.string().max(200).openapi({ description: 'The queue it takes jobs from: named after its model set' }),
    jobs: z.array(z.string().max(200)).max(64).openapi({ description: 'The jobs it runs now' }),
  })
  .strict()
  .openapi('WorkerAnnouncement', { description: 'What a worker says of itself with each heartbeat' });

export const WorkerSetup = z
  .object({
    server_id: z.string().openapi({ description: "The server's name in Redis" }),
    prefix: z.string().openapi({ description: "BullMQ's key prefix of the server's queues (vidx:<server_id>): servers may share one Redis" }),
    server_version: z.string(),
    queue: z.string().openapi({ description: "The queue of the server's model set: a worker takes jobs from the queue of its own set, so only a worker with the same models takes the server's jobs" }),
    models: ModelSetSchema,
    heartbeat_ms: z.number().int(),
  })
  .openapi('WorkerSetup');

export const HeartbeatAnswer = z
  .object({
    server_version: z.string(),
    queue: z.string().openapi({ description: "The queue of the server's model set" }),
    models: ModelSetSchema,
    takes_jobs: z.boolean().openapi({ description: "Whether this worker's queue is the server's (its models are the server's)" }),
    reason: z.string().nullable().openapi({ description: 'Why it takes none of the server’s jobs' }),
    cancel: z.array(z.string()).openapi({ description: 'Its jobs whose tasks were deleted or ended: stop them' }),
    heartbeat_ms: z.number().int(),
  })
  .openapi('HeartbeatAnswer');

export const JobParams = z.object({ job_id: z.string().min(1).max(200).openapi({ param: { name: 'job_id', in: 'path' } }) });

export const JobStartBody = z.object({ worker: WorkerId }).strict().openapi('JobStartRequest');

const NotReady = (status: 'wait' | 'gone', description: string) =>
  z.object({ status: z.literal(status), reason: z.string() }).openapi({ description });

export const JobStartAnswer = z
  .union([
    z
      .object({
        status: z.literal('ready'),
        kind: z.enum(['image', 'media']),
        input: z.object({ title: z.string().nullable(), metadata: z.record(z.string(), z.unknown()).nullable(), language: z.enum(['en', 'de']).nullable(), faces: z.boolean() }),
        path_source: z.boolean().openapi({ description: 'The media is a file on the server: the subtitle files beside it come along, and are read as its sidecars' }),
        files: z
          .array(z.object({ name: z.string(), size: z.number().int(), url: z.string().openapi({ description: 'A signed link for this job and key (ranges answered)' }) }))
          .openapi({ description: 'The media first, then its subtitle files' }),
      })
      .openapi({ description: 'Run it: download the files, analyse the first' }),
    NotReady('wait', 'Not yet (the server restarted and the task has not asked for the job again): try again in a moment'),
    NotReady('gone', 'Its task was deleted or has ended: drop it'),
  ])
  .openapi('JobStart');

const TimedText = z.object({ start: z.number(), end: z.number(), text: z.string() });
const VisualEntry = z.object({ start: z.number(), end: z.number(), summary: z.string(), ocr: z.array(z.string()), tags: z.array(z.string()) });
const FileName = z.string().regex(DELIVERED_FILE).nullable();
const Vectors = z
  .object({ model: z.string(), dims: z.number().int(), items: z.array(z.object({ episodeIndex: z.number().int(), time: z.number(), vector: z.string().openapi({ description: 'float32 values, little-endian, base64' }) })) })
  .nullable();

/** An analysis as a worker delivers it: the pipeline's output, thumbnails and face crops by file name, vectors as base64. */
export const WireAnalysis = z
  .object({
    type: z.enum(['video', 'audio', 'image']),
    duration: z.number(),
    width: z.number().nullable().optional(),
    height: z.number().nullable().optional(),
    language: z.enum(['en', 'de']),
    title: z.string().nullable(),
    transcript: z.array(TimedText),
    transcriptSource: z.enum(['sidecar', 'embedded', 'asr', 'none']),
    subtitleLanguages: z.array(z.string().min(1).max(16)).optional(),
    subtitleTracks: z.array(z.object({ language: z.string().min(1).max(16), source: z.enum(['sidecar', 'embedded']), segments: z.array(TimedText) })).optional(),
    screenText: z.array(TimedText),
    visual: z.array(VisualEntry),
    episodes: z.array(z.object({ index: z.number().int(), start: z.number(), end: z.number(), audio: z.array(TimedText), visual: z.array(VisualEntry), summary: z.string(), thumbnail: FileName, thumbnailTime: z.number() })),
    summary: z.string(),
    warnings: z.array(z.string()),
    passageVectors: Vectors,
    frameVectors: Vectors,
    framePrints: z
      .array(z.object({ time: z.number(), hash: z.string().regex(/^[0-9a-f]{16}$/), detail: z.string().regex(/^[0-9a-f]{64}$/), colour: z.array(z.number()).length(48) }))
      .optional()
      .openapi({ description: 'Perceptual fingerprints of the keyframes (a photo: one at time 0)' }),
    frameSequence: z.object({ fps: z.number(), hashes: z.string() }).nullable().optional(),
    faces: z
      .array(z.object({ start: z.number(), end: z.number(), box: z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() }), score: z.number(), thumbnail: FileName, vector: z.array(z.number()).nullable(), personId: z.string().nullable() }))
      .nullable()
      .optional(),
    facesSamePerson: z.number().nullable().optional(),
  })
  // Fields a newer pipeline adds pass through untouched (a worker and its server run the same version: the queue name says so).
  .loose()
  .openapi('WireAnalysis');

export const DeliveryBody = z
  .object({
    worker: WorkerId,
    files: z.array(z.string().regex(DELIVERED_FILE)).max(4096).openapi({ description: 'The file parts that follow, by file name' }),
    analysis: WireAnalysis,
  })
  .strict()
  .openapi('Delivery');

export const DeliveryAnswer = z
  .object({
    status: z.enum(['committed', 'duplicate', 'wait', 'gone']).openapi({ description: 'committed; duplicate: delivered before, nothing committed; wait: another delivery of it is being written, send again; gone: its task was deleted or ended' }),
    reason: z.string().optional(),
  })
  .openapi('DeliveryAnswer');

const QueueState = z
  .object({
    url: z.string().openapi({ description: 'The Redis URL, its password hidden' }),
    name: z.string().openapi({ description: "The queue of the server's model set" }),
    prefix: z.string().openapi({ description: "BullMQ's key prefix of the server's queues" }),
    connected: z.boolean(),
    since: z.string().openapi({ description: 'Since when Redis has been reachable (or not)' }),
    error: z.string().nullable(),
    local_workers: z.number().int().openapi({ description: 'VIDX_LOCAL_WORKERS' }),
    capacity: z.number().int().openapi({ description: 'Jobs at once the live workers on this queue take (0 while Redis is away): the work limit' }),
  })
  .openapi('QueueState');

/** What `/health` adds with a job queue: `workers` and `queue` (null without one). */
export const HealthQueueFields = {
  workers: z.number().int().openapi({ description: 'vidx extra: live workers (the server’s own counted), 0 without a job queue' }),
  queue: QueueState.nullable().openapi({ description: 'vidx extra: the job queue (VIDX_QUEUE_URL); null: analyses run in this process' }),
};

export const WorkerInfo = z
  .object({
    id: WorkerId,
    host: z.string(),
    version: z.string(),
    local: z.boolean().openapi({ description: "The server's own worker (VIDX_LOCAL_WORKERS)" }),
    models: ModelSetSchema,
    queue: z.string(),
    takes_jobs: z.boolean(),
    reason: z.string().nullable(),
    concurrency: z.number().int(),
    jobs: z.array(z.string()).openapi({ description: 'The jobs it runs now (a job id starts with its task id)' }),
    last_seen_at: z.string(),
  })
  .openapi('WorkerInfo');

export const WorkerList = z.object({ workers: z.array(WorkerInfo), queue: QueueState.nullable() }).openapi('WorkerList');

export const WorkerModels = z
  .object({
    models: z.array(z.record(z.string(), z.unknown())).openapi({ description: 'The entries of models/manifest.json the server has installed: `vidx worker --pull-models` pulls them from GET /worker/hub' }),
    capabilities: z.record(z.string(), CapabilityInfo),
  })
  .openapi('WorkerModels');
