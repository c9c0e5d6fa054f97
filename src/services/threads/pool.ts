import type { Worker } from 'node:worker_threads';
import PQueue from 'p-queue';
import type { ModelRuntime } from '../../ml/runtime.js';
import { startWorker, workerSource, type WorkerSource } from './entry.js';
import { runJob, type JobInput, type JobName, type JobOutput } from './thread-jobs.js';
import { fromWire, type WorkerReply, type WorkerRequest, type WorkerSettings } from './protocol.js';

/** How a pool runs its jobs. */
export interface WorkerPoolOptions {
  /** Worker threads at most (also how many jobs run at once); 0 runs every job inline, one at a time. */
  threads: number;
  /** What each thread starts with (file access, tool and model paths). */
  settings: WorkerSettings;
  /** The models of inline jobs: the main thread's own. */
  models: ModelRuntime;
  /** What the threads are called in errors, e.g. "analysis thread". */
  label: string;
  /** The single binary's worker bundles (config.workersDir). */
  workersDir?: string;
  /**
   * A compiled thread module to start the threads from instead of the entry beside this file; tests pass lib/'s
   * build of thread.ts when it matches the sources, so a thread starts without compiling them through tsx.
   */
  entry?: URL;
}

/** Cancellation in, progress out: what the caller of a job may give. */
export interface RunOptions {
  signal?: AbortSignal;
  progress?: (fraction: number, stage: string) => void;
}

/**
 * How long a cancelled job's thread has to end it before the pool ends the thread: a thread inside a long
 * synchronous stretch (an ONNX run, a loop over thousands of lines) hears the cancel only when it is out.
 */
export const CANCEL_GRACE_MS = 2_000;

interface Running {
  worker: Worker;
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  progress?: RunOptions['progress'];
}

/**
 * vidx's one pool of worker threads, for every job of services/threads/thread-jobs.ts (analyses, clusters, topic
 * suggestions): a p-queue hands each job to an idle thread (threads start on first need and are kept), with
 * progress and cancellation across the boundary. A thread that dies fails its job with a clear error and is
 * replaced by the next job. Where no worker entry exists, or with `threads: 0`, jobs run inline.
 * @example
 * const pool = new ThreadPool({ threads: 1, settings, models, label: 'analysis thread' });
 * const analysis = await pool.run('analyze_media', input, { signal, progress });
 * await pool.close();
 */
export class ThreadPool {
  private readonly queue: PQueue;
  private readonly idle: Worker[] = [];
  private readonly all = new Set<Worker>();
  private readonly running = new Map<number, Running>();
  /** The tool processes each thread has running (ffmpeg, Tesseract), as the thread reports them. */
  private readonly children = new Map<Worker, Set<number>>();
  private readonly source: WorkerSource | null;
  private nextId = 1;
  private closed = false;

  constructor(private readonly opts: WorkerPoolOptions) {
    const own = () => (opts.entry ? { url: opts.entry, eval: false as const } : workerSource(import.meta.url, 'thread', 'worker', opts.workersDir));
    this.source = opts.threads > 0 ? own() : null;
    this.queue = new PQueue({ concurrency: this.source ? opts.threads : 1 });
  }

  /** Whether jobs run in worker threads (false: inline). */
  get threaded(): boolean {
    return this.source !== null;
  }

  /** The threads now alive (diagnostics and tests). */
  threads(): Worker[] {
    return [...this.all];
  }

  /** The tool processes the threads have running now (diagnostics and tests). */
  toolProcesses(): number[] {
    return [...this.children.values()].flatMap((pids) => [...pids]);
  }

  /** Runs a job; resolves with its output, rejects with its error (MediaError and SourceError rebuilt) or when its thread dies. */
  run<N extends JobName>(name: N, input: JobInput<N>, o: RunOptions = {}): Promise<JobOutput<N>> {
    if (this.closed) return Promise.reject(new Error(`the ${this.opts.label} pool is closed`));
    return this.queue.add(async () => {
      o.signal?.throwIfAborted();
      if (!this.source) {
        // Yield once so an inline job never runs inside the caller's synchronous stretch.
        await new Promise((r) => setImmediate(r));
        const signal = o.signal ?? new AbortController().signal;
        return runJob(name, input, { signal, progress: o.progress ?? (() => {}), models: this.opts.models });
      }
      return (await this.inThread(name, input, o)) as JobOutput<N>;
    }) as Promise<JobOutput<N>>;
  }

  /** Stops the threads; a running job fails and queued ones never start. */
  async close(): Promise<void> {
    this.closed = true;
    this.queue.clear();
    const threads = [...this.all];
    this.all.clear();
    this.idle.length = 0;
    await Promise.all(threads.map((w) => w.terminate()));
  }

  private inThread(name: JobName, input: unknown, o: RunOptions): Promise<unknown> {
    const worker = this.idle.pop() ?? this.start();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      let grace: NodeJS.Timeout | undefined;
      // The thread is told at once; its tool processes end at once; the thread itself, if it has not ended
      // the job within the grace, is ended and replaced (the next job starts a new one).
      const onAbort = () => {
        worker.postMessage({ id, cancel: true } satisfies WorkerRequest);
        this.killChildren(worker);
        grace = setTimeout(() => this.endThread(worker, o.signal!.reason), CANCEL_GRACE_MS);
      };
      o.signal?.addEventListener('abort', onAbort, { once: true });
      const done = () => {
        clearTimeout(grace);
        o.signal?.removeEventListener('abort', onAbort);
        this.running.delete(id);
        if (this.all.has(worker)) this.idle.push(worker);
      };
      this.running.set(id, {
        worker,
        progress: o.progress,
        resolve: (v) => {
          done();
          resolve(v);
        },
        reject: (e) => {
          done();
          reject(e);
        },
      });
      worker.postMessage({ id, job: name, input } satisfies WorkerRequest);
    });
  }

  private start(): Worker {
    const worker = startWorker(this.source!, { workerData: this.opts.settings });
    this.all.add(worker);
    this.children.set(worker, new Set());
    worker.on('message', (m: WorkerReply) => {
      if ('child' in m) {
        const [pid, alive] = m.child;
        if (alive) this.children.get(worker)?.add(pid);
        else this.children.get(worker)?.delete(pid);
        return;
      }
      const job = this.running.get(m.id);
      if (!job) return;
      if ('progress' in m) job.progress?.(m.progress[0], m.progress[1]);
      else if ('output' in m) job.resolve(m.output);
      else job.reject(fromWire(m.error));
    });
    const fail = (err: Error) => {
      this.killChildren(worker);
      this.children.delete(worker);
      this.all.delete(worker);
      const i = this.idle.indexOf(worker);
      if (i >= 0) this.idle.splice(i, 1);
      for (const job of [...this.running.values()]) if (job.worker === worker) job.reject(err);
    };
    worker.on('error', (err) => fail(new Error(`the ${this.opts.label} failed: ${err.message}`)));
    worker.on('exit', (code) => fail(new Error(`the ${this.opts.label} stopped unexpectedly (exit code ${code}); the task can be retried`)));
    return worker;
  }

  /** Ends a thread's tool processes (SIGKILL, as spawnTool's own abort does). */
  private killChildren(worker: Worker): void {
    for (const pid of this.children.get(worker) ?? []) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  }

  /** Ends a thread that did not end its cancelled job: its jobs fail with `reason`, and the thread is not reused. */
  private endThread(worker: Worker, reason: unknown): void {
    if (!this.all.has(worker)) return;
    this.all.delete(worker);
    const err = reason instanceof Error ? reason : new Error('cancelled');
    for (const job of [...this.running.values()]) if (job.worker === worker) job.reject(err);
    void worker.terminate();
  }
}
