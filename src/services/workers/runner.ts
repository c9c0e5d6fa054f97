import type { Worker } from 'node:worker_threads';
import PQueue from 'p-queue';
import { startWorker, workerSource, type WorkerSource } from './entry.js';
import { jobs, type JobInput, type JobName, type JobOutput, type JobReply } from './jobs.js';

/** How a JobRunner runs jobs: `threads` worker threads, or inline (0) where no worker entry exists. */
export interface JobRunnerOptions {
  threads: number;
}

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  worker: Worker;
}

/**
 * Runs jobs (services/workers/jobs.ts) off the request loop: a p-queue hands each job to one of a few
 * worker threads; a thread that dies fails its job and is replaced by the next job. Inputs and outputs
 * cross the boundary by structured clone, so a runner on another machine could take the same jobs.
 * With `threads: 0`, or where no worker entry exists (the single binary), jobs run inline, one at a time.
 * @example
 * const runner = new JobRunner({ threads: 1 });
 * const elements = await runner.run('suggestions', { rows, language: 'en', maxTopics: 8 });
 * await runner.close();
 */
export class JobRunner {
  private readonly queue: PQueue;
  private readonly idle: Worker[] = [];
  private readonly all = new Set<Worker>();
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closed = false;

  private readonly threads: number;
  private readonly code: WorkerSource | null;

  constructor(opts: JobRunnerOptions) {
    this.code = opts.threads > 0 ? workerSource(import.meta.url, 'thread') : null;
    // Without a worker entry (the single binary) jobs run inline.
    this.threads = this.code ? opts.threads : 0;
    this.queue = new PQueue({ concurrency: Math.max(1, this.threads) });
  }

  /** Whether jobs run in worker threads (false: inline). */
  get threaded(): boolean {
    return this.threads > 0;
  }

  /** Runs a job and resolves with its output; rejects with the job's error or when its thread dies. */
  run<N extends JobName>(name: N, input: JobInput<N>): Promise<JobOutput<N>> {
    if (this.closed) return Promise.reject(new Error('the job runner is closed'));
    return this.queue.add(async () => {
      if (this.threads <= 0) {
        // Yield once so an inline job never runs inside the caller's synchronous stretch.
        await new Promise((r) => setImmediate(r));
        return (jobs[name] as (i: JobInput<N>) => JobOutput<N>)(input);
      }
      const worker = this.idle.pop() ?? this.start();
      try {
        return (await this.send(worker, name, input)) as JobOutput<N>;
      } finally {
        if (this.all.has(worker)) this.idle.push(worker);
      }
    }) as Promise<JobOutput<N>>;
  }

  /** Waits for running jobs, then stops the threads. */
  async close(): Promise<void> {
    this.closed = true;
    await this.queue.onIdle();
    await Promise.all([...this.all].map((w) => w.terminate()));
    this.all.clear();
    this.idle.length = 0;
  }

  private start(): Worker {
    const worker = startWorker(this.code!);
    this.all.add(worker);
    worker.on('message', (reply: JobReply) => {
      const p = this.pending.get(reply.id);
      if (!p) return;
      this.pending.delete(reply.id);
      if ('error' in reply) p.reject(new Error(reply.error));
      else p.resolve(reply.output);
    });
    const fail = (err: Error) => {
      this.all.delete(worker);
      const i = this.idle.indexOf(worker);
      if (i >= 0) this.idle.splice(i, 1);
      for (const [id, p] of this.pending) {
        if (p.worker === worker) {
          this.pending.delete(id);
          p.reject(err);
        }
      }
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`job worker exited with code ${code}`)));
    return worker;
  }

  private send(worker: Worker, name: JobName, input: unknown): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, worker });
      worker.postMessage({ id, name, input });
    });
  }
}
