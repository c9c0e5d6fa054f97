/**
 * `vidx worker`: runs a server's analysis jobs on this machine. It takes jobs from the BullMQ queue of its
 * own model set (so it never takes a job it lacks the models for), reads each job's media through the job's
 * signed links (it needs no access to the server's media roots), runs the same pipeline in threads of its
 * own with its own models, and delivers the analysis to the server, which commits it once. Its heartbeat
 * tells the server it is there (with its models and jobs) and brings back the jobs whose tasks were deleted.
 */
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'bullmq';
import pRetry from 'p-retry';
import { createVidxClient, VidxError, type VidxClient } from '../client/index.js';
import type { WorkerConfig } from '../config.js';
import type { Logger } from '../logger.js';
import { MediaTools } from '../media/binaries.js';
import { FileAccess } from '../media/index.js';
import { ModelRuntime } from '../ml/runtime.js';
import { stopWorker } from '../services/jobs/local-worker.js';
import { modelSetDifference, queueName } from '../services/jobs/model-set.js';
import { jobProcessor } from '../services/jobs/processor.js';
import { redisConnection } from '../services/jobs/redis.js';
import type { JobData } from '../services/jobs/wire.js';
import type { WorkerSetup } from '../services/jobs/broker.js';
import { ThreadPool } from '../services/threads/pool.js';
import { VERSION } from '../version.js';
import { httpPort } from './http-port.js';
import { workerId } from './identity.js';
import { pullServerModels } from './models.js';

/** A running `vidx worker`. */
export interface RunningWorker {
  id: string;
  /** The queue of its model set. */
  queue: string;
  /** Hands its running jobs back to the queue and stops. */
  close(): Promise<void>;
}

/** Job folders a worker that was killed left behind, older than a day: a download of a job it may run again is resumed, older ones go. */
function sweepJobs(jobsDir: string): void {
  for (const name of readdirSync(jobsDir)) {
    const path = join(jobsDir, name);
    if (Date.now() - statSync(path).mtimeMs > 86_400_000) rmSync(path, { recursive: true, force: true });
  }
}

/**
 * Starts a worker: pulls the server's models first when asked, then takes jobs once the server answered
 * its first heartbeat.
 * @example
 * const w = await startWorker(loadWorkerConfig(process.env, argv), createLogger('info'));
 * process.once('SIGTERM', () => void w.close());
 */
export async function startWorker(c: WorkerConfig, log: Logger): Promise<RunningWorker> {
  const jobsDir = join(c.dataDir, 'jobs');
  const workDir = join(c.dataDir, 'work');
  for (const d of [jobsDir, workDir, c.modelsDir]) mkdirSync(d, { recursive: true, mode: 0o700 });
  sweepJobs(jobsDir);
  const client = createVidxClient({ baseUrl: c.serverUrl, key: c.apiKey });
  for (const warning of c.warnings) log(`settings: ${warning}`);
  const setup = await serverSetup(client, log);
  if (c.pullModels) await pullServerModels(client, c, log);
  // The worker's own tools read only what its server sent into its job folders; its threads keep a rule of their own.
  const tools = new MediaTools(c.tools, FileAccess.unrestricted());
  const models = new ModelRuntime({ modelsDir: c.modelsDir, manifestPath: c.modelsManifest, tools, setup: { assets: c.modelAssets, providers: c.onnxProviders } });
  const id = workerId(c.dataDir, c.id);
  // The threads read media only from the job folders (their media root); the models and work folders are never media.
  const settings = { modelsDir: c.modelsDir, ...(c.modelsManifest ? { manifestPath: c.modelsManifest } : {}), mediaRoots: [jobsDir], dataDir: workDir, ownDirs: [c.modelsDir], tools: c.tools, modelAssets: c.modelAssets, onnxProviders: c.onnxProviders, ...(c.nativeRoot ? { nativeRoot: c.nativeRoot } : {}) };
  const pool = new ThreadPool({ threads: c.concurrency, settings, models, label: 'analysis thread', ...(c.threadsDir ? { threadsDir: c.threadsDir } : {}) });
  // The queue of this worker's own model set: the server's jobs come only when the sets are the same.
  const queue = queueName(models.capabilities());
  if (queue !== setup.queue) log("worker: its models differ from the server's; it takes none of its jobs", { differences: modelSetDifference(setup.models, models.capabilities()) });
  const running = new Set<string>();
  const lockDuration = c.lockSeconds * 1000;
  const processor = jobProcessor({ port: httpPort(client, c.serverUrl, id, jobsDir), pool, workDir, models: () => models.capabilities(), running });
  const options = { connection: redisConnection(c.queueUrl), prefix: setup.prefix, concurrency: c.concurrency, lockDuration, stalledInterval: lockDuration, name: id, autorun: false };
  const worker = new Worker<JobData>(queue, processor, options);
  worker.on('error', () => {});
  const beats = heartbeats(client, { id, queue, concurrency: c.concurrency, models, running, worker, log });
  await beats.first;
  void worker.run();
  log('worker taking jobs', { worker: id, server: c.serverUrl, queue, concurrency: c.concurrency });
  return {
    id,
    queue,
    async close() {
      beats.stop();
      await stopWorker(worker);
      await pool.close();
    },
  };
}

/**
 * The server's setup (its queue prefix and models), asked again while the server is not there yet; a
 * refused key or a server without a job queue ends the start.
 */
async function serverSetup(client: VidxClient, log: Logger): Promise<WorkerSetup> {
  return pRetry(() => client.GET('/worker/setup'), {
    retries: Number.POSITIVE_INFINITY, minTimeout: 500, maxTimeout: 5_000, factor: 2,
    onFailedAttempt: ({ error, attemptNumber }) => {
      if (attemptNumber === 1 && !refused(error)) log('worker: waiting for the server', { error: error.message });
    },
    shouldRetry: ({ error }) => !refused(error),
  });
}

/** The server answered and said no (a refused key, no job queue): asking again will not help. */
function refused(err: unknown): boolean {
  return err instanceof VidxError && err.status < 500;
}

/** What the heartbeat says and acts on. */
interface BeatContext {
  id: string;
  queue: string;
  concurrency: number;
  models: ModelRuntime;
  running: Set<string>;
  worker: Worker<JobData>;
  log: Logger;
}

/**
 * Beats every 2 s (the server says how often): announces the worker, stops the jobs the server names, and
 * pauses taking jobs while the server does not answer. `first` resolves with the first answer.
 */
function heartbeats(client: VidxClient, b: BeatContext): { first: Promise<void>; stop(): void } {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let said = '';
  const say = (line: string, fields: Record<string, unknown> = {}) => {
    if (line !== said) b.log(line, { worker: b.id, ...fields });
    said = line;
  };
  const first = new Promise<void>((resolveFirst) => {
    const beat = async (): Promise<void> => {
      let every = 2_000;
      try {
        const answer = await client.POST('/worker/heartbeat', {
          body: { id: b.id, host: hostname(), version: VERSION, concurrency: b.concurrency, models: b.models.capabilities(), queue: b.queue, jobs: [...b.running] },
        });
        every = answer.heartbeat_ms;
        for (const job of answer.cancel) b.worker.cancelJob(job, 'cancelled');
        if (b.worker.isPaused()) b.worker.resume();
        say(answer.takes_jobs ? 'worker: the server counts this worker' : `worker: takes no jobs of this server: ${answer.reason}`);
        resolveFirst();
      } catch (err) {
        // Too many requests of this key at once (its deliveries are being read): the server is there; beat again.
        if (err instanceof VidxError && err.status === 429) {
          if (!stopped) timer = setTimeout(() => void beat(), every);
          return;
        }
        if (b.worker.isRunning() && !b.worker.isPaused()) void b.worker.pause(true);
        // A refusal (another id for this key, a reserved id, too many jobs at once) is not the server being away.
        if (err instanceof VidxError && err.status < 500) say(`worker: the server refuses this worker (${err.code}); taking no jobs`, { error: err.message });
        else say('worker: the server does not answer; taking no new jobs until it does', { error: (err as Error).message });
      }
      if (!stopped) timer = setTimeout(() => void beat(), every);
    };
    void beat();
  });
  const stop = () => {
    stopped = true;
    clearTimeout(timer);
  };
  return { first, stop };
}
