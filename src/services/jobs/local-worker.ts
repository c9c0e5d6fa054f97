import pTimeout from 'p-timeout';
import { Worker, type ConnectionOptions } from 'bullmq';
import type { ThreadPool } from '../threads/pool.js';
import type { ModelSet } from '../../ml/model-set.js';
import { jobProcessor, SHUTDOWN, type JobPort } from './processor.js';
import type { JobData } from './wire.js';

/** The id the server's own workers have in task views and `GET /workers`. */
export const LOCAL_WORKER = 'local';

/** What the server's own workers are built from. */
export interface LocalWorkerOptions {
  connection: ConnectionOptions;
  /** The server's key prefix in Redis. */
  prefix: string;
  /** Jobs at once (VIDX_LOCAL_WORKERS, at least 1 here). */
  concurrency: number;
  lockSeconds: number;
  /** The server itself, reached directly. */
  port: JobPort;
  pool: ThreadPool;
  workDir: string;
  models: () => ModelSet;
  log: (msg: string, fields?: Record<string, unknown>) => void;
}

/**
 * The server's own workers (VIDX_LOCAL_WORKERS): a BullMQ worker in the server's process on the queue of
 * the server's model set, running the pipeline in the server's analysis threads on the media where it lies.
 * When the model set changes (a model was pulled), it moves to the new queue.
 * @example
 * const local = new LocalWorkers(opts);
 * local.listen('vidx-analysis-v3-5f0c2a91be47');
 * local.running(); // ['0193…-3fa2…']
 * await local.close();
 */
export class LocalWorkers {
  private worker: Worker<JobData> | null = null;
  private queue = '';
  private readonly active = new Set<string>();

  constructor(private readonly o: LocalWorkerOptions) {}

  /** Takes jobs from `queue` (leaving the one it took them from before). */
  listen(queue: string): void {
    if (queue === this.queue) return;
    const before = this.worker;
    this.queue = queue;
    const processor = jobProcessor({ port: this.o.port, pool: this.o.pool, workDir: this.o.workDir, models: this.o.models, running: this.active });
    const lockDuration = this.o.lockSeconds * 1000;
    this.worker = new Worker<JobData>(queue, processor, { connection: this.o.connection, prefix: this.o.prefix, concurrency: this.o.concurrency, lockDuration, stalledInterval: lockDuration, name: LOCAL_WORKER });
    // Every failed reconnect is an error event; the broker's watch tells when Redis is away.
    this.worker.on('error', () => {});
    if (before) void stopWorker(before);
  }

  /** The jobs it runs now. */
  running(): string[] {
    return [...this.active];
  }

  /** Stops a job it runs (its task was deleted); false when it runs no such job. */
  cancel(jobId: string): boolean {
    return this.worker?.cancelJob(jobId, 'cancelled') ?? false;
  }

  /** Hands the running jobs back to the queue and stops. */
  async close(): Promise<void> {
    if (this.worker) await stopWorker(this.worker);
    this.worker = null;
  }
}

/**
 * Stops a BullMQ worker: its running jobs go back to the queue (no attempt spent), then it closes; when
 * Redis is away and that cannot happen, it closes anyway after a few seconds (the jobs then stall and
 * BullMQ's stalled check hands them out again).
 * @example
 * await stopWorker(worker);
 */
export async function stopWorker(worker: Worker<JobData>): Promise<void> {
  worker.cancelAllJobs(SHUTDOWN);
  await pTimeout(worker.close(), { milliseconds: 5_000, fallback: () => worker.close(true) });
}
