import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { DelayedError, UnrecoverableError, type Job, type Processor } from 'bullmq';
import { MediaError, SourceError } from '../../media/index.js';
import { pipelineJob } from '../analysis/runner.js';
import type { MediaAnalysis } from '../../analysis/types.js';
import type { ThreadPool } from '../threads/pool.js';
import { modelSetDifference, queueName } from './model-set.js';
import type { ModelSet } from '../../ml/model-set.js';
import { failureReason, type DeliveryAnswer, type JobData, type JobInputFields, type JobNotReady } from './wire.js';

/** A started job as the worker reads it: its media (and the subtitle files beside it) on this machine. */
export interface PreparedJob {
  status: 'ready';
  kind: JobData['kind'];
  input: JobInputFields;
  file: string;
  /** The path sidecar subtitles sit beside, for a path source; null for uploads and URLs. */
  sourcePath: string | null;
}

/**
 * How a worker reaches the server: in the server's own process directly, from `vidx worker` over HTTP
 * with the media downloaded through the job's signed links.
 */
export interface JobPort {
  start(jobId: string, signal: AbortSignal): Promise<PreparedJob | JobNotReady>;
  /** Reports how far the job is (the server takes it only from the worker holding the job). */
  progress(jobId: string, fraction: number, stage: string): Promise<void>;
  /** Delivers the analysis with the files it names, which lie in `dir`. */
  deliver(jobId: string, analysis: MediaAnalysis, dir: string, signal: AbortSignal): Promise<DeliveryAnswer>;
  /** Removes what `start` fetched for the job. */
  finish?(jobId: string): Promise<void>;
}

/** What a job processor is built from. */
export interface ProcessorOptions {
  port: JobPort;
  /** The threads the pipeline runs in. */
  pool: ThreadPool;
  /** Where the pipeline writes a job's thumbnails before they are delivered. */
  workDir: string;
  /** This worker's model set: a job that expects another fails with the difference as its reason. */
  models: () => ModelSet;
  /** The ids of the jobs running now (heartbeats report them). */
  running: Set<string>;
}

/** How long a job waits before it asks again when the server is not ready for it (just restarted). */
export const RETRY_START_MS = 2_000;
const PROGRESS_EVERY_MS = 400;

/** The reason given to BullMQ's cancelJob when a worker stops (the job goes back to the queue, no attempt spent). */
export const SHUTDOWN = 'shutdown';

/** Reports progress to the server through the port: on each new stage, else at most every 400 ms. */
function progressReporter(port: JobPort, jobId: string): (fraction: number, stage: string) => void {
  let last = 0;
  let lastStage = '';
  return (fraction, stage) => {
    const now = Date.now();
    if (stage === lastStage && now - last < PROGRESS_EVERY_MS) return;
    last = now;
    lastStage = stage;
    port.progress(jobId, fraction, stage).catch(() => {});
  };
}

/** Puts the job back to wait `ms` from now without spending an attempt. */
async function later(job: Job<JobData>, token: string | undefined, ms: number): Promise<never> {
  await job.moveToDelayed(Date.now() + ms, token);
  throw new DelayedError();
}

/**
 * The failure BullMQ records: a file that is not media (or a refused path) fails at once, for good; a
 * cancelled job too; anything else is retried by BullMQ's attempts.
 */
function asJobError(err: unknown, signal: AbortSignal): Error {
  if (err instanceof DelayedError || err instanceof UnrecoverableError) return err;
  if (signal.aborted) return new UnrecoverableError(failureReason(new Error('cancelled: the task was deleted')));
  if (err instanceof MediaError || err instanceof SourceError) return new UnrecoverableError(failureReason(err));
  return new Error(failureReason(err));
}

/**
 * The BullMQ processor of an analysis job, the same for the server's own workers and `vidx worker`: start
 * it (or wait, or drop it), run the pipeline in a thread with progress into the job, deliver the analysis,
 * clean up. A job whose expected model set is not this worker's fails with the difference as its reason.
 * @example
 * new Worker(queue, jobProcessor({ port, pool, workDir, models, running }), { connection, concurrency });
 */
export function jobProcessor(o: ProcessorOptions): Processor<JobData> {
  // Three parameters, none with a default: BullMQ hands a job its abort signal only to a processor whose length is 3.
  return async (job, token, given) => {
    const signal = given ?? new AbortController().signal;
    const id = job.id!;
    const differs = queueName(job.data.models) === queueName(o.models()) ? [] : modelSetDifference(job.data.models, o.models());
    if (differs.length) throw new UnrecoverableError(failureReason(new Error(`this worker cannot run the job: its models differ from the server's (${differs.join('; ')})`)));
    o.running.add(id);
    let out: string | null = null;
    try {
      await mkdir(o.workDir, { recursive: true });
      out = await mkdtemp(join(o.workDir, 'out-'));
      const t0 = performance.now();
      const started = await o.port.start(id, signal);
      if (started.status === 'wait') return await later(job, token, RETRY_START_MS);
      if (started.status === 'gone') throw new UnrecoverableError(failureReason(new Error(`dropped: ${started.reason}`)));
      const input = { ...started.input, file: started.file, sourcePath: started.sourcePath, thumbnailDir: out };
      const t1 = performance.now();
      const analysis = await o.pool.run(pipelineJob(started.kind), input, { signal, progress: progressReporter(o.port, id) });
      const t2 = performance.now();
      const answer = await o.port.deliver(id, analysis, out, signal);
      if (answer.status === 'gone') throw new UnrecoverableError(failureReason(new Error(`delivered too late: ${answer.reason ?? 'the task is gone'}`)));
      // The job's return value says where its time went (BullMQ keeps it with the completed job).
      const s = (ms: number) => Math.round(ms) / 1000;
      return { delivered: answer.status, fetch_s: s(t1 - t0), analysis_s: s(t2 - t1), deliver_s: s(performance.now() - t2) };
    } catch (err) {
      // A worker that stops hands its job back to the queue for another (or its own next start).
      if (signal.aborted && signal.reason === SHUTDOWN) return await later(job, token, 0);
      throw asJobError(err, signal);
    } finally {
      o.running.delete(id);
      if (out) await rm(out, { recursive: true, force: true });
      await o.port.finish?.(id).catch(() => {});
    }
  };
}
