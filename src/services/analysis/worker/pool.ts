import type { Worker } from 'node:worker_threads';
import type { ModelRuntime } from '../../../ml/runtime.js';
import { startWorker, workerSource, type WorkerSource } from '../../workers/entry.js';
import { analyzeImage } from '../image.js';
import { analyzeFile, type PipelineInput } from '../pipeline.js';
import type { MediaAnalysis } from '../types.js';
import { fromWire, type AnalysisKind, type AnalysisReply, type AnalysisRequest, type AnalysisWorkerSettings } from './protocol.js';

/** What the caller of an analysis hears about: cancellation in, progress out. */
export interface AnalysisRunContext {
  signal: AbortSignal;
  progress: (fraction: number, stage: string) => void;
}

/** Runs one analysis; the Analyzer takes one of these. */
export type RunAnalysis = (kind: AnalysisKind, input: PipelineInput, ctx: AnalysisRunContext) => Promise<MediaAnalysis>;

/**
 * Analysis on the calling thread with the given models: `VIDX_ANALYSIS_THREADS=0`, or a build without a
 * worker entry.
 * @example
 * const run = inlineAnalysis(models);
 * await run('media', input, { signal, progress });
 */
export function inlineAnalysis(models: ModelRuntime): RunAnalysis {
  return (kind, input, ctx) => (kind === 'image' ? analyzeImage : analyzeFile)(input, { models, ...ctx });
}

interface Job {
  worker: Worker;
  resolve: (a: MediaAnalysis) => void;
  reject: (e: Error) => void;
  progress: AnalysisRunContext['progress'];
}

/**
 * Analysis worker threads: one analysis per thread at a time (the task engine bounds how many run), each
 * thread with its own models, started on first need and kept for the next task. A thread that dies fails
 * its analysis with a clear error and is replaced by the next one. Jobs and results are structured-clone
 * data (services/analysis/worker/protocol.ts).
 * @example
 * const pool = new AnalysisWorkers(settings);
 * const analysis = await pool.run('media', input, { signal, progress });
 * await pool.close();
 */
export class AnalysisWorkers {
  private readonly idle: Worker[] = [];
  private readonly all = new Set<Worker>();
  private readonly jobs = new Map<number, Job>();
  private nextId = 1;
  private readonly source: WorkerSource | null;

  constructor(private readonly settings: AnalysisWorkerSettings) {
    this.source = workerSource(import.meta.url, 'thread', 'analysis');
  }

  /** Whether analyses can run in threads here (a worker entry exists: the module, or the binary's bundle). */
  get available(): boolean {
    return this.source !== null;
  }

  /** The threads now alive (diagnostics and tests). */
  threads(): Worker[] {
    return [...this.all];
  }

  /** Runs an analysis in a thread; resolves with its result, rejects with its error (MediaError etc. rebuilt). */
  run: RunAnalysis = (kind, input, ctx) => {
    if (!this.source) return Promise.reject(new Error('analysis threads are not available in this build'));
    if (ctx.signal.aborted) return Promise.reject(ctx.signal.reason instanceof Error ? ctx.signal.reason : new Error('aborted'));
    const worker = this.idle.pop() ?? this.start();
    const id = this.nextId++;
    return new Promise<MediaAnalysis>((resolve, reject) => {
      const onAbort = () => worker.postMessage({ id, cancel: true } satisfies AnalysisRequest);
      ctx.signal.addEventListener('abort', onAbort, { once: true });
      const done = () => {
        ctx.signal.removeEventListener('abort', onAbort);
        this.jobs.delete(id);
        if (this.all.has(worker)) this.idle.push(worker);
      };
      this.jobs.set(id, {
        worker,
        progress: ctx.progress,
        resolve: (a) => (done(), resolve(a)),
        reject: (e) => (done(), reject(e)),
      });
      worker.postMessage({ id, kind, input } satisfies AnalysisRequest);
    });
  };

  /** Stops the threads (a running analysis fails). */
  async close(): Promise<void> {
    const threads = [...this.all];
    this.all.clear();
    this.idle.length = 0;
    await Promise.all(threads.map((w) => w.terminate()));
  }

  private start(): Worker {
    const worker = startWorker(this.source!, { workerData: this.settings });
    this.all.add(worker);
    worker.on('message', (m: AnalysisReply) => {
      const job = this.jobs.get(m.id);
      if (!job) return;
      if ('progress' in m) job.progress(m.progress[0], m.progress[1]);
      else if ('analysis' in m) job.resolve(m.analysis);
      else job.reject(fromWire(m.error));
    });
    const fail = (err: Error) => {
      this.all.delete(worker);
      const i = this.idle.indexOf(worker);
      if (i >= 0) this.idle.splice(i, 1);
      for (const job of [...this.jobs.values()]) if (job.worker === worker) job.reject(err);
    };
    worker.on('error', (err) => fail(new Error(`the analysis thread failed: ${err.message}`)));
    worker.on('exit', (code) => fail(new Error(`the analysis thread stopped unexpectedly (exit code ${code}); the task can be retried`)));
    return worker;
  }
}
