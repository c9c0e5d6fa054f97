import type { Worker } from 'node:worker_threads';
import PQueue from 'p-queue';
import type { ModelRuntime } from '../../ml/runtime.js';
import { startThread, threadSource, type ThreadSource } from './entry.js';
import { runCall, type CallInput, type CallName, type CallOutput } from './thread-calls.js';
import { fromWire, type ThreadReply, type ThreadRequest, type ThreadSettings } from './protocol.js';

/** How a pool runs its calls. */
export interface ThreadPoolOptions {
  /** Threads at most (also how many calls run at once); 0 runs every call inline, one at a time. */
  threads: number;
  /** What each thread starts with (file access, tool and model paths). */
  settings: ThreadSettings;
  /** The models of inline calls: the main thread's own. */
  models: ModelRuntime;
  /** What the threads are called in errors, e.g. "analysis thread". */
  label: string;
  /** The single binary's thread bundles (config.threadsDir). */
  threadsDir?: string;
  /**
   * A compiled thread module to start the threads from instead of the entry beside this file; tests pass lib/'s
   * build of thread.ts when it matches the sources, so a thread starts without compiling them through tsx.
   */
  entry?: URL;
}

/** Cancellation in, progress out: what the caller of a call may give. */
export interface RunOptions {
  signal?: AbortSignal;
  progress?: (fraction: number, stage: string) => void;
}

/**
 * How long a cancelled call's thread has to end it before the pool ends the thread: a thread inside a long
 * synchronous stretch (an ONNX run, a loop over thousands of lines) hears the cancel only when it is out.
 */
export const CANCEL_GRACE_MS = 2_000;

interface Running {
  thread: Worker;
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  progress?: RunOptions['progress'];
}

/**
 * vidx's one pool of threads, for every call of services/threads/thread-calls.ts (analyses, clusters, topic
 * suggestions): a p-queue hands each call to an idle thread (threads start on first need and are kept), with
 * progress and cancellation across the boundary. A thread that dies fails its call with a clear error and is
 * replaced by the next call. Where no thread entry exists, or with `threads: 0`, calls run inline.
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
  private readonly source: ThreadSource | null;
  private nextId = 1;
  private closed = false;

  constructor(private readonly opts: ThreadPoolOptions) {
    const own = () => (opts.entry ? { url: opts.entry, eval: false as const } : threadSource(import.meta.url, 'thread', 'thread', opts.threadsDir));
    this.source = opts.threads > 0 ? own() : null;
    this.queue = new PQueue({ concurrency: this.source ? opts.threads : 1 });
  }

  /** Whether calls run in threads (false: inline). */
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

  /** Runs a call; resolves with its output, rejects with its error (MediaError and SourceError rebuilt) or when its thread dies. */
  run<N extends CallName>(name: N, input: CallInput<N>, o: RunOptions = {}): Promise<CallOutput<N>> {
    if (this.closed) return Promise.reject(new Error(`the ${this.opts.label} pool is closed`));
    return this.queue.add(async () => {
      o.signal?.throwIfAborted();
      if (!this.source) {
        // Yield once so an inline call never runs inside the caller's synchronous stretch.
        await new Promise((r) => setImmediate(r));
        const signal = o.signal ?? new AbortController().signal;
        return runCall(name, input, { signal, progress: o.progress ?? (() => {}), models: this.opts.models });
      }
      return (await this.inThread(name, input, o)) as CallOutput<N>;
    }) as Promise<CallOutput<N>>;
  }

  /** Stops the threads; a running call fails and queued ones never start. */
  async close(): Promise<void> {
    this.closed = true;
    this.queue.clear();
    const threads = [...this.all];
    this.all.clear();
    this.idle.length = 0;
    await Promise.all(threads.map((w) => w.terminate()));
  }

  private inThread(name: CallName, input: unknown, o: RunOptions): Promise<unknown> {
    const thread = this.idle.pop() ?? this.start();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      let grace: NodeJS.Timeout | undefined;
      // The thread is told at once; its tool processes end at once; the thread itself, if it has not ended
      // the call within the grace, is ended and replaced (the next call starts a new one).
      const onAbort = () => {
        thread.postMessage({ id, cancel: true } satisfies ThreadRequest);
        this.killChildren(thread);
        grace = setTimeout(() => this.endThread(thread, o.signal!.reason), CANCEL_GRACE_MS);
      };
      o.signal?.addEventListener('abort', onAbort, { once: true });
      const done = () => {
        clearTimeout(grace);
        o.signal?.removeEventListener('abort', onAbort);
        this.running.delete(id);
        if (this.all.has(thread)) this.idle.push(thread);
      };
      this.running.set(id, {
        thread,
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
      thread.postMessage({ id, call: name, input } satisfies ThreadRequest);
    });
  }

  private start(): Worker {
    const thread = startThread(this.source!, { workerData: this.opts.settings });
    this.all.add(thread);
    this.children.set(thread, new Set());
    thread.on('message', (m: ThreadReply) => {
      if ('child' in m) {
        const [pid, alive] = m.child;
        if (alive) this.children.get(thread)?.add(pid);
        else this.children.get(thread)?.delete(pid);
        return;
      }
      const call = this.running.get(m.id);
      if (!call) return;
      if ('progress' in m) call.progress?.(m.progress[0], m.progress[1]);
      else if ('output' in m) call.resolve(m.output);
      else call.reject(fromWire(m.error));
    });
    const fail = (err: Error) => {
      this.killChildren(thread);
      this.children.delete(thread);
      this.all.delete(thread);
      const i = this.idle.indexOf(thread);
      if (i >= 0) this.idle.splice(i, 1);
      for (const call of [...this.running.values()]) if (call.thread === thread) call.reject(err);
    };
    thread.on('error', (err) => fail(new Error(`the ${this.opts.label} failed: ${err.message}`)));
    thread.on('exit', (code) => fail(new Error(`the ${this.opts.label} stopped unexpectedly (exit code ${code}); the task can be retried`)));
    return thread;
  }

  /** Ends a thread's tool processes (SIGKILL, as spawnTool's own abort does). */
  private killChildren(thread: Worker): void {
    for (const pid of this.children.get(thread) ?? []) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  }

  /** Ends a thread that did not end its cancelled call: its calls fail with `reason`, and the thread is not reused. */
  private endThread(thread: Worker, reason: unknown): void {
    if (!this.all.has(thread)) return;
    this.all.delete(thread);
    const err = reason instanceof Error ? reason : new Error('cancelled');
    for (const call of [...this.running.values()]) if (call.thread === thread) call.reject(err);
    void thread.terminate();
  }
}
