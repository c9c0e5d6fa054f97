/**
 * The server's side of the analysis job queue (VIDX_QUEUE_URL): analyses become BullMQ jobs on the queue of
 * the server's model set, workers start them and deliver their results over the job endpoints, the
 * server's own workers (VIDX_LOCAL_WORKERS) take them like any other, and the work gate hands out as many
 * slots as the live workers take jobs at once (none while Redis is away: tasks wait as queued).
 */
import { msg } from '../../messages/index.js';
import { hostname } from 'node:os';
import { Queue, QueueEvents } from 'bullmq';
import type { AnalysisCache } from '../../analysis/cache.js';
import type { AnalysisRunner } from '../analysis/runner.js';
import { Problem } from '../errors.js';
import type { WorkGate } from '../work-gate.js';
import type { ThreadPool } from '../threads/pool.js';
import type { Store } from '../../store/index.js';
import type { JobHolder } from '../../store/jobs.js';
import { AttachedJobs } from './attached.js';
import { Deliveries, taskWaits, type Delivery } from './deliveries.js';
import { checkDeliveredFiles, checkEpisodeText, MAX_EPISODE_TEXT } from './delivery-checks.js';
import { TimeSlices } from '../../tools/time-slices.js';
import { LOCAL_WORKER, LocalWorkers } from './local-worker.js';
import { queueName } from './model-set.js';
import type { ModelSet } from '../../ml/model-set.js';
import type { ModelPack } from './model-pack.js';
import type { JobPort } from './processor.js';
import { redactRedisUrl, redisConnection, RedisWatch } from './redis.js';
import { WorkerRegistry, type WorkerAnnouncement, type WorkerView } from './registry.js';
import { QueueRunner } from './runner.js';
import { jobFailure, parseJobId, toWireAnalysis, type DeliveryAnswer, type JobData, type JobStart } from './wire.js';
import { WorkerKeys } from './worker-keys.js';

/** How often workers beat; one that missed about three beats is no longer counted. */
export const HEARTBEAT_MS = 2_000;
const LIVE_MS = 3 * HEARTBEAT_MS + 1_000;

/**
 * How long a started job stays its worker's without news: each heartbeat naming the job (and each progress
 * report) renews it, so it runs out about when the worker stops being counted as live. Only then may
 * another key start the job (BullMQ handing a stalled job to another worker).
 */
export const LEASE_MS = LIVE_MS;

/** The server's own workers as holders of the jobs they run. */
const LOCAL_HOLDER: JobHolder = { key: LOCAL_WORKER, worker: LOCAL_WORKER };

/** The error code of a start refused because another worker key holds the job. */
export const JOB_HELD = 'job_held';

/** What the broker is built from. */
export interface BrokerOptions {
  url: string;
  /** This server's name in Redis: its keys are under `vidx:<id>`, so servers may share one Redis. */
  serverId: string;
  /** The server's model set now. */
  models: () => ModelSet;
  cache: AnalysisCache;
  store: Pick<Store, 'jobs' | 'tasks' | 'keys'>;
  gate: WorkGate;
  /** The server's own workers (0: none). */
  localWorkers: number;
  lockSeconds: number;
  /** Requests a worker key may have in flight beyond one per job its worker announced (VIDX_WORKER_SPARE_REQUESTS). */
  spareRequests: number;
  /** The threads the server's own workers run the pipeline in. */
  pool: ThreadPool;
  /** Where the server's own workers write thumbnails before they are delivered. */
  workDir: string;
  version: string;
  /** The models workers pull from this server. */
  pack: ModelPack;
  log: (msg: string, fields?: Record<string, unknown>) => void;
}

/** The queue as `/health` and `GET /workers` show it. */
export interface QueueState {
  /** The Redis URL without its password. */
  url: string;
  /** The queue of the server's model set. */
  name: string;
  /** BullMQ's key prefix of this server's queues. */
  prefix: string;
  connected: boolean;
  /** Since when Redis has been reachable (or not). */
  since: string;
  /** Why it is not, while it is not. */
  error: string | null;
  local_workers: number;
  /** Jobs at once the live workers on this queue take: the work gate's limit. */
  capacity: number;
}

/** What a worker learns before it takes jobs: whose queue, under which prefix, and the server's models. */
export interface WorkerSetup {
  server_id: string;
  /** BullMQ's key prefix of this server's queues. */
  prefix: string;
  server_version: string;
  /** The queue of the server's model set, and that set. */
  queue: string;
  models: ModelSet;
  heartbeat_ms: number;
}

/** What a worker hears back from a heartbeat. */
export interface HeartbeatAnswer {
  server_version: string;
  /** The queue of the server's model set, and that set. */
  queue: string;
  models: ModelSet;
  takes_jobs: boolean;
  reason: string | null;
  /** Jobs of this worker whose tasks were deleted or ended: stop them. */
  cancel: string[];
  heartbeat_ms: number;
}

/**
 * The job queue of one server.
 * @example
 * const broker = new JobBroker(opts);
 * const analyzer = new Analyzer(models, cache, analyzerOptions, broker.runner);
 * broker.heartbeat(announcement, callerKeyId).cancel; // []
 * await broker.close();
 */
export class JobBroker {
  readonly runner: AnalysisRunner;
  /** The models workers pull from this server (`GET /worker/models`, `/worker/hub/…`). */
  readonly pack: ModelPack;
  private readonly attached = new AttachedJobs();
  private readonly deliveries: Deliveries;
  private readonly registry = new WorkerRegistry(LIVE_MS);
  private readonly workerKeys: WorkerKeys;
  private readonly watch: RedisWatch;
  private readonly queues = new Map<string, { queue: Queue<JobData>; events: QueueEvents }>();
  /** Jobs whose tasks were deleted, with when: their workers hear it with their next heartbeat. */
  private readonly cancelled = new Map<string, number>();
  private readonly local: LocalWorkers | null;
  private readonly timer: NodeJS.Timeout;
  private closed = false;

  constructor(private readonly o: BrokerOptions) {
    this.pack = o.pack;
    this.workerKeys = new WorkerKeys(o.store.keys);
    this.deliveries = new Deliveries(o.cache, o.store.jobs, o.store.tasks, this.attached);
    this.deliveries.prune();
    this.watch = new RedisWatch(o.url, (up) => {
      o.log(up ? 'job queue: Redis is reachable' : 'job queue: Redis is unreachable; analysis tasks wait as queued', { redis: redactRedisUrl(o.url) });
      this.tick();
    });
    this.runner = new QueueRunner({
      attached: this.attached, deliveries: this.deliveries, jobs: o.store.jobs,
      queue: (name) => this.queue(name), queueName: () => this.queueName(), models: o.models, redisUp: () => this.watch.up,
      cancel: (id) => this.cancel(id), checkMs: 3_000,
    });
    this.local = o.localWorkers > 0 ? new LocalWorkers({
      connection: redisConnection(o.url), prefix: this.prefix, concurrency: o.localWorkers, lockSeconds: o.lockSeconds, port: this.localPort(),
      pool: o.pool, workDir: o.workDir, models: o.models, log: o.log,
    }) : null;
    this.tick();
    this.timer = setInterval(() => this.tick(), 1_000);
    this.timer.unref();
  }

  /** What a worker needs before it takes jobs. */
  setup(): WorkerSetup {
    return { server_id: this.o.serverId, prefix: this.prefix, server_version: this.o.version, queue: this.queueName(), models: this.o.models(), heartbeat_ms: HEARTBEAT_MS };
  }

  /** BullMQ's key prefix of this server's queues. */
  get prefix(): string {
    return `vidx:${this.o.serverId}`;
  }

  /**
   * A remote worker's heartbeat with its key: the key's one worker (its id fixed by the first heartbeat,
   * never a reserved name, at most the key's cap of jobs at once) is counted, the jobs it names and holds
   * keep their lease, and it hears which of its jobs to stop.
   */
  heartbeat(a: WorkerAnnouncement, keyId: string): HeartbeatAnswer {
    const { key } = this.workerKeys.claim(keyId, a.id, a.concurrency);
    // The worker is counted under its id as the key was fixed to it: `Desk-1` and `desk-1` are one worker.
    const id = key.worker_id;
    this.registry.beat({ ...a, id }, { id: key.id, name: key.name });
    this.o.store.jobs.renew(a.jobs, key.id, Date.now() + LEASE_MS);
    this.tick();
    const queue = this.queueName();
    const view = this.registry.views(queue, this.o.models()).find((w) => w.id === id);
    const cancel = a.jobs.filter((id) => this.cancelled.has(id) || !taskWaits(this.o.store.tasks, parseJobId(id)?.task ?? ''));
    return { server_version: this.o.version, queue, models: this.o.models(), takes_jobs: view?.takes_jobs ?? false, reason: view?.reason ?? null, cancel, heartbeat_ms: HEARTBEAT_MS };
  }

  /**
   * Requests a worker key may have in flight at once: one per job its live worker announced (one before its
   * first heartbeat) and the spare ones (its heartbeat). More would only be a worker flooding the server.
   */
  requestsAllowed(keyId: string): number {
    return (this.registry.concurrencyOfKey(keyId) ?? 1) + this.o.spareRequests;
  }

  /** Who a job call of a remote worker comes from: its key, as the worker that key is fixed to (403/409 otherwise). */
  holderOf(keyId: string, worker: string): JobHolder {
    return this.workerKeys.holder(keyId, worker);
  }

  /**
   * A worker starts a job: what it reads, or to wait (the server has not asked for it again since a
   * restart), or to drop it. The job becomes the holder's until its lease runs out; another key's start
   * meanwhile is refused (409 `job_held`) and gets no links.
   */
  startJob(jobId: string, holder: JobHolder): JobStart {
    const task = parseJobId(jobId)?.task;
    const a = this.attached.get(jobId);
    if (!task || !a) {
      return task && taskWaits(this.o.store.tasks, task)
        ? { status: 'wait', reason: 'the task of this job has not asked for it since the server started' }
        : { status: 'gone', reason: 'the task of this job was deleted or has ended' };
    }
    if (!this.o.store.jobs.get(jobId)) return { status: 'wait', reason: 'the job is being queued again' };
    const now = Date.now();
    if (!this.o.store.jobs.hold(jobId, holder, now + LEASE_MS, now)) {
      throw new Problem('conflict', msg('job_held'), [], JOB_HELD);
    }
    this.o.store.tasks.setWorker(task, holder.worker);
    const { title, metadata, language, faces, voices } = a.job.input;
    return { status: 'ready', kind: a.job.kind, input: { title, metadata, language, faces: faces ?? false, voices: voices ?? false }, path_source: a.job.input.sourcePath !== null, files: a.files };
  }

  /** The worker holding a job reports progress: the waiting task shows it, and the lease is renewed. */
  progress(jobId: string, holder: JobHolder, fraction: number, stage: string): { status: 'ok' | 'gone' } {
    if (!this.deliveries.held(jobId, holder)) return { status: 'gone' };
    this.o.store.jobs.renew([jobId], holder.key, Date.now() + LEASE_MS);
    const a = this.attached.get(jobId);
    a?.progress(fraction, stage);
    return { status: a ? 'ok' : 'gone' };
  }

  /**
   * What a remote worker's delivery gets before any of it is read, from its key (and the worker it names
   * in a header, if it does) and the job it is for: the holder it comes from (403/409 when the key is not
   * the job's worker), and the answer itself when none of it would be taken (see Deliveries.before).
   */
  beforeDelivery(jobId: string, keyId: string, worker?: string): { holder: JobHolder; answer: DeliveryAnswer | null } {
    const holder = this.workerKeys.holder(keyId, worker);
    return { holder, answer: this.deliveries.before(jobId, holder) };
  }

  /**
   * The worker holding a job delivers its analysis (see Deliveries): refused (403 `job_not_held`) from any
   * other key, (422 `episode_text_too_long`) when an episode holds more text than one row of the search
   * tables should, and (422 `bad_thumbnail`) when a file is not a picture.
   */
  async deliver(jobId: string, holder: JobHolder, d: Delivery): Promise<DeliveryAnswer> {
    this.deliveries.held(jobId, holder);
    await checkEpisodeText(d.wire, MAX_EPISODE_TEXT, new TimeSlices());
    await checkDeliveredFiles(d.dir, d.files);
    return this.deliveries.accept(jobId, holder, d);
  }

  /**
   * The file behind a job's signed link (0: the media, then its subtitle files), while a task waits for the
   * job and the link's key holds it (a key whose job another key took over reads no more of it).
   */
  jobFile(jobId: string, index: number, keyId: string): string | null {
    if (this.o.store.jobs.get(jobId)?.holder_key !== keyId) return null;
    return this.attached.get(jobId)?.files[index]?.path ?? null;
  }

  /** The live workers and the queue (`GET /workers`). */
  workers(): { workers: WorkerView[]; queue: QueueState } {
    return { workers: this.registry.views(this.queueName(), this.o.models()), queue: this.state() };
  }

  /** What `/health` says of the queue: how many workers are live, and the queue. */
  health(): { workers: number; queue: QueueState } {
    return { workers: this.registry.live().length, queue: this.state() };
  }

  async close(): Promise<void> {
    // Redis's watch may still call tick while everything closes (the store may be closed by then).
    this.closed = true;
    clearInterval(this.timer);
    await this.local?.close();
    await Promise.all([...this.queues.values()].flatMap(({ queue, events }) => [events.close(), queue.close()]));
    await this.watch.close();
  }

  private state(): QueueState {
    const { up, since, error } = this.watch.state();
    const name = this.queueName();
    return { url: redactRedisUrl(this.o.url), name, prefix: this.prefix, connected: up, since, error, local_workers: this.o.localWorkers, capacity: up ? this.registry.capacity(name) : 0 };
  }

  private queueName(): string {
    return queueName(this.o.models());
  }

  /** Keeps the server's own workers on its queue and counted, forgets old cancels, and sizes the work gate. */
  private tick(): void {
    if (this.closed) return;
    const name = this.queueName();
    if (this.local) {
      this.local.listen(name);
      const jobs = this.local.running();
      this.registry.beat({ id: LOCAL_WORKER, host: hostname(), version: this.o.version, concurrency: this.o.localWorkers, models: this.o.models(), queue: name, jobs }, null);
      this.o.store.jobs.renew(jobs, LOCAL_HOLDER.key, Date.now() + LEASE_MS);
    }
    for (const [id, at] of this.cancelled) if (Date.now() - at > 3_600_000) this.cancelled.delete(id);
    this.o.gate.resize(this.watch.up ? this.registry.capacity(name) : 0);
  }

  private cancel(jobId: string): void {
    this.cancelled.set(jobId, Date.now());
    this.local?.cancel(jobId);
  }

  /**
   * The queue of a name, with its events: a final failure fails the waiting task. (Progress comes from the
   * worker holding the job through `progress`, never from Redis, where any worker could write it.)
   */
  private queue(name: string): Queue<JobData> {
    const known = this.queues.get(name);
    if (known) return known.queue;
    const connection = redisConnection(this.o.url);
    const queue = new Queue<JobData>(name, { connection, prefix: this.prefix });
    const events = new QueueEvents(name, { connection, prefix: this.prefix });
    queue.on('error', () => {});
    events.on('error', () => {});
    events.on('failed', ({ jobId, failedReason }) => this.attached.fail(jobId, jobFailure(failedReason)));
    this.queues.set(name, { queue, events });
    return queue;
  }

  /** The server reached directly by its own workers: the media where it lies, the delivery without a copy over HTTP. */
  private localPort(): JobPort {
    return {
      start: async (id) => {
        const s = this.localStart(id);
        if (s.status !== 'ready') return s;
        const file = s.files[0]!.path;
        return { status: 'ready', kind: s.kind, input: s.input, file, sourcePath: s.path_source ? file : null };
      },
      progress: async (id, fraction, stage) => {
        this.progress(id, LOCAL_HOLDER, fraction, stage);
      },
      deliver: async (id, analysis, dir) => {
        const { analysis: wire, files } = toWireAnalysis(analysis);
        return this.deliver(id, LOCAL_HOLDER, { wire, dir, files });
      },
    };
  }

  /** A start by the server's own workers: a job a remote worker holds is waited for, as a remote worker would. */
  private localStart(id: string): JobStart {
    try {
      return this.startJob(id, LOCAL_HOLDER);
    } catch (err) {
      if (err instanceof Problem && err.code === JOB_HELD) return { status: 'wait', reason: err.message };
      throw err;
    }
  }
}
