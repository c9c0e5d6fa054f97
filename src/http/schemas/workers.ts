import { z } from '@hono/zod-openapi';
import { LANGS } from '../../messages/index.js';
import { CapabilityInfo } from './models.js';
import { DELIVERED_FILE } from '../../services/jobs/wire.js';
import { LIST_PATH, MAX_LINE_BYTES } from '../../services/jobs/delivery-lines.js';
import { MAX_EPISODE_TEXT } from '../../services/jobs/delivery-checks.js';
import { WORKER_ID } from '../../services/jobs/worker-keys.js';
import { zodText } from '../zod-messages.js';
import { ANALYSIS_BOUNDS, analysisSchemas } from '../../analysis/schema.js';

/** A worker's name: letters, digits, `.`, `_` and `-`. */
export const WorkerId = z.string().regex(WORKER_ID, zodText('must_match', { pattern: WORKER_ID.source })).openapi({ example: 'desk-1a2b' });

const ModelSetSchema = z
  .record(z.string().max(100), z.object({ available: z.boolean(), model: z.string().max(200).optional() }))
  .refine((set) => Object.keys(set).length <= 100, 'at most 100 capabilities')
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
        input: z.object({ title: z.string().nullable(), metadata: z.record(z.string(), z.unknown()).nullable(), language: z.enum(LANGS).nullable(), faces: z.boolean() }),
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

/**
 * What a worker may deliver at most: the analysis schema's bounds (analysis/schema.ts), and the request's own.
 * Generous for hours of media, small enough that a made-up analysis cannot fill the server's disk or memory.
 */
export const DELIVERY_LIMITS = {
  ...ANALYSIS_BOUNDS,
  /**
   * Characters of one episode's text: its audio lines, the on-screen text and tags of its visual entries,
   * the screen-text and other subtitle lines that fall in it, and its summary. An episode of the pipeline
   * lasts at most 5 minutes and holds a few thousand; its text is one row of the search tables, written at once.
   */
  episodeText: MAX_EPISODE_TEXT,
  /** Bytes of the whole request, every part together (checked against Content-Length first, then while it is read). */
  requestBytes: 256 * 1024 * 1024,
  /** Bytes of one JSON line of the `body` part (or of a `body` in one JSON object). */
  lineBytes: MAX_LINE_BYTES,
} as const;

const L = DELIVERY_LIMITS;
/** The analysis schema with its files as the names of the delivery's file parts. */
const Wire = analysisSchemas(z.string().regex(DELIVERED_FILE).nullable());

/**
 * What each list of a delivered analysis holds and how many at most: a JSON line of a delivery that adds
 * to a list (services/jobs/delivery-lines.ts) is checked with these, item by item.
 */
export const DELIVERY_LISTS = {
  transcript: { item: Wire.TimedText, max: L.entries },
  screenText: { item: Wire.TimedText, max: L.entries },
  visual: { item: Wire.VisualEntry, max: L.entries },
  episodes: { item: Wire.Episode, max: L.episodes },
  'episodes.audio': { item: Wire.TimedText, max: L.entries },
  'episodes.visual': { item: Wire.VisualEntry, max: L.entries },
  subtitleTracks: { item: Wire.SubtitleTrack, max: L.words },
  'subtitleTracks.segments': { item: Wire.TimedText, max: L.entries },
  'passageVectors.items': { item: Wire.VectorItem, max: L.entries },
  'frameVectors.items': { item: Wire.VectorItem, max: L.entries },
  framePrints: { item: Wire.TimedPrint, max: L.entries },
  faces: { item: Wire.Face, max: L.episodes },
} as const;

/** A JSON line of a delivery after its first: items for one list of the analysis (services/jobs/delivery-lines.ts). */
export const AddLine = z
  .object({
    add: z.string().regex(LIST_PATH, zodText('must_match', { pattern: LIST_PATH.source })),
    items: z.array(z.unknown()).max(L.entries),
  })
  .strict();

/**
 * An analysis as a worker delivers it: the analysis schema itself, thumbnails and face crops by file name,
 * vectors as base64. A worker and its server run one version (the queue name says so); anything else a
 * worker adds is dropped, so nothing unbounded reaches the cache.
 */
export const WireAnalysis = Wire.MediaAnalysis.strip().openapi('WireAnalysis');

export const DeliveryBody = z
  .object({
    worker: WorkerId,
    files: z.array(z.string().regex(DELIVERED_FILE)).max(2 * L.episodes).openapi({ description: 'The file parts that follow, by file name: episode thumbnails, pictures and face crops, each a JPEG or WebP picture' }),
    analysis: WireAnalysis,
  })
  .strict()
  .openapi('Delivery');

/** A worker's progress on a job it holds. */
export const ProgressBody = z
  .object({ worker: WorkerId, fraction: z.number().min(0).max(1), stage: z.string().min(1).max(200) })
  .strict()
  .openapi('JobProgress');

export const ProgressAnswer = z
  .object({ status: z.enum(['ok', 'gone']).openapi({ description: 'ok: passed to the waiting task; gone: no task waits for the job (drop it)' }) })
  .openapi('JobProgressAnswer');

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
    key: z
      .object({ id: z.string(), name: z.string() })
      .nullable()
      .openapi({ description: 'The worker key it uses (its id and name, never the key itself); null for the server’s own workers' }),
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
