import { setTimeout as pause } from 'node:timers/promises';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Job, Queue } from 'bullmq';
import { listSidecarSubtitles } from '../../media/sidecar.js';
import type { AnalysisJob, AnalysisRunner, RunOutcome } from '../analysis/runner.js';
import type { AnalysisJobRepository } from '../../store/jobs.js';
import { stoppedForShutdown } from '../task-engine.js';
import type { RunOptions } from '../threads/pool.js';
import type { AttachedJobs, Attachment } from './attached.js';
import type { Deliveries } from './deliveries.js';
import type { ModelSet } from '../../ml/model-set.js';
import { jobFailure, jobIdOf, type JobData, type JobFile } from './wire.js';

/** What the queue runner needs from the broker around it. */
export interface QueueRunnerDeps {
  attached: AttachedJobs;
  deliveries: Deliveries;
  jobs: AnalysisJobRepository;
  /** The BullMQ queue of a name (kept open by the broker). */
  queue: (name: string) => Queue<JobData>;
  /** The queue of the server's model set now. */
  queueName: () => string;
  models: () => ModelSet;
  redisUp: () => boolean;
  /** Stops a job on whichever worker runs it (its task was deleted). */
  cancel: (jobId: string) => void;
  /** How often a waiting task looks at its job in Redis (a job Redis lost is queued again; a failed one fails the task). */
  checkMs: number;
}

/** BullMQ's own retries for a job that failed for a passing reason (a worker crash, a network error). */
const JOB_OPTIONS = { attempts: 3, backoff: { type: 'exponential', delay: 2_000 }, removeOnComplete: { age: 3_600 }, removeOnFail: { age: 86_400 } };

/** The states of a job some worker still has to do (or is doing): a task waiting for it adopts it. */
const PENDING = new Set(['waiting', 'active', 'delayed', 'prioritized', 'waiting-children']);

/**
 * The media of a job, then the subtitle files beside a path source: what a worker downloads, by name.
 * @example
 * await jobFiles({ file: '/srv/v/talk.mp4', sourcePath: '/srv/v/talk.mp4', … }); // talk.mp4, talk.de.srt
 */
export async function jobFiles(input: AnalysisJob['input']): Promise<JobFile[]> {
  const media: JobFile = { name: basename(input.sourcePath ?? input.file), size: (await stat(input.file)).size, path: input.file };
  const sidecars = input.sourcePath ? await listSidecarSubtitles(input.sourcePath) : [];
  const extra = await Promise.all(sidecars.map(async (s) => ({ name: basename(s.path), size: (await stat(s.path).catch(() => ({ size: 0 }))).size, path: s.path })));
  return [media, ...extra];
}

/**
 * Analyses through the job queue: a task's analysis becomes a BullMQ job named after the task and the
 * analysis's cache key, and the task waits for a worker to deliver it. Waiting again for the same job (a
 * task run again after a restart) adopts the job still in Redis, or takes the result a worker delivered
 * meanwhile. While a task waits it looks at its job now and then: a job Redis lost is queued again, a
 * job that failed fails the task. A deleted task's job is removed or stopped on its worker; a server that
 * stops leaves its jobs running for the next start.
 * @example
 * const analyzer = new Analyzer(models, cache, opts, new QueueRunner(deps));
 */
export class QueueRunner implements AnalysisRunner {
  constructor(private readonly deps: QueueRunnerDeps) {}

  async run(job: AnalysisJob, o: RunOptions): Promise<RunOutcome> {
    o.signal?.throwIfAborted();
    const id = jobIdOf(job.task, job.key);
    const files = await jobFiles(job.input);
    const { attachment, fresh } = this.deps.attached.attach(id, () => ({ job, queue: this.deps.queueName(), files, progress: o.progress ?? (() => {}) }));
    if (fresh) {
      // Delivered while no task waited for it (the server restarted while the job ran): nothing to queue.
      const early = await this.deps.deliveries.take(id);
      if (early) this.deps.attached.settle(id, early);
      else void this.supervise(attachment);
    }
    o.progress?.(0, 'waiting for a worker');
    if (!o.signal) return attachment.done;
    const signal = o.signal;
    return new Promise<RunOutcome>((resolve, reject) => {
      const onAbort = () => {
        this.stop(attachment, signal);
        reject(signal.reason instanceof Error ? signal.reason : new Error(`stopped (${String(signal.reason)})`));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      attachment.done.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  }

  /** The task stopped waiting: a deleted task's job goes; a stopping server's stays for its next start. */
  private stop(a: Attachment, signal: AbortSignal): void {
    this.deps.attached.detach(a.id);
    if (stoppedForShutdown(signal)) return;
    this.deps.cancel(a.id);
    if (!this.deps.redisUp()) return;
    void this.deps
      .queue(a.queue)
      .getJob(a.id)
      .then(async (job) => {
        const state = job ? await job.getState() : 'missing';
        // A job no worker took yet goes at once; a running one is stopped by its worker (told by cancel).
        if (job && state !== 'active' && PENDING.has(state)) await job.remove();
      })
      .catch(() => {});
  }

  /** Looks at the job until the task's wait ends: queues it (again) where needed, fails the task with it. */
  private async supervise(a: Attachment): Promise<void> {
    let first = true;
    while (this.deps.attached.get(a.id) === a) {
      if (this.deps.redisUp()) {
        try {
          await this.check(a, first);
          first = false;
        } catch {
          // Redis went away during the look: the next round looks again.
        }
      }
      await pause(this.deps.checkMs, undefined, { ref: false });
    }
  }

  private async check(a: Attachment, first: boolean): Promise<void> {
    const queue = this.deps.queue(a.queue);
    const job = await queue.getJob(a.id);
    const state = job ? await job.getState() : 'missing';
    if (this.deps.attached.get(a.id) !== a) return;
    if (PENDING.has(state)) {
      if (first) this.adopt(a);
    } else if (state === 'failed' && !first && job) {
      this.deps.attached.fail(a.id, jobFailure(job.failedReason));
    } else {
      // Missing (never queued, or lost with Redis), or over from an earlier run: queued anew.
      await this.enqueue(queue, a, job);
    }
  }

  /** A job already in Redis from an earlier run of the task: its coming delivery is this wait's answer. */
  private adopt(a: Attachment): void {
    const row = this.deps.jobs.get(a.id);
    if (!row || row.delivered_at) this.deps.jobs.reset(a.id, a.job.task, a.job.key);
  }

  private async enqueue(queue: Queue<JobData>, a: Attachment, old: Job<JobData> | undefined): Promise<void> {
    if (old) await old.remove();
    this.deps.jobs.reset(a.id, a.job.task, a.job.key);
    const data: JobData = { task: a.job.task, key: a.job.key, kind: a.job.kind, models: this.deps.models() };
    await queue.add('analyze', data, { jobId: a.id, ...JOB_OPTIONS });
  }
}
