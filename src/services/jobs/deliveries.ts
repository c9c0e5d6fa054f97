import { msg } from '../../messages/index.js';
import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { AnalysisCache, StoredAnalysis } from '../../analysis/cache.js';
import type { RunOutcome } from '../analysis/runner.js';
import type { AnalysisJobRepository, AnalysisJobRow, JobHolder } from '../../store/jobs.js';
import type { TaskRepository } from '../../store/tasks.js';
import { Problem } from '../errors.js';
import { nowIso } from '../timestamps.js';
import type { AttachedJobs } from './attached.js';
import { LOCAL_WORKER } from './local-worker.js';
import { DELIVERED_FILE, fromWireAnalysis, namedFiles, parseJobId, toWireAnalysis, type DeliveryAnswer } from './wire.js';

/** The file a delivered analysis waits in, in its cache folder, until its task takes it. */
const deliveredName = (task: string) => `delivered-${task}.json`;

/** Moves a file into place (a copy where the two lie on different file systems). */
function moveFile(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    copyFileSync(from, to);
    rmSync(from, { force: true });
  }
}

/** Whether the server's own workers ran the job: only their analyses may serve other owners from the cache. */
const byServer = (row: AnalysisJobRow) => row.holder_key === LOCAL_WORKER;

/**
 * Workers' results, committed once per job and only from the key holding the job: the files go into the
 * analysis cache folder of the job's key (a remote worker's into a folder of its job's own there, so they
 * never mix with a shared entry), the analysis beside them, then the job is marked delivered in SQLite (the
 * commit). The task waiting for the job gets it at once; a task that is not waiting yet (the server
 * restarted while the job ran) finds it when it asks for the job again. A job already delivered commits nothing.
 * @example
 * const answer = deliveries.accept(jobId, { key: 'key_1a2b', worker: 'desk-1a2b' }, wire, stagedDir, ['ep-0.jpg']);
 * answer.status; // 'committed', then 'duplicate' for the same job again
 */
export class Deliveries {
  /** Jobs whose delivery is being written now: a second one at the same time waits. */
  private readonly busy = new Set<string>();

  constructor(
    private readonly cache: AnalysisCache,
    private readonly jobs: AnalysisJobRepository,
    private readonly tasks: TaskRepository,
    private readonly attached: AttachedJobs,
  ) {}

  /** Takes a delivery whose files (`files`, by name) lie in `dir`; they are moved away from there when it commits. */
  accept(jobId: string, holder: JobHolder, wire: StoredAnalysis, dir: string, files: string[]): DeliveryAnswer {
    const row = this.held(jobId, holder);
    if (!row) return { status: 'gone', reason: 'no such job on this server' };
    const worker = holder.worker;
    if (row.delivered_at) {
      this.jobs.markDelivered(jobId, worker, nowIso());
      return { status: 'duplicate', reason: `already delivered by ${row.worker ?? 'a worker'}; nothing was committed` };
    }
    if (!taskWaits(this.tasks, row.task_id)) return { status: 'gone', reason: 'the task of this job was deleted or has ended' };
    if (this.busy.has(jobId)) return { status: 'wait', reason: 'another delivery of this job is being committed' };
    this.busy.add(jobId);
    try {
      const folder = this.folderOf(row);
      const present = new Set<string>();
      for (const name of new Set(files)) {
        if (!DELIVERED_FILE.test(name) || !existsSync(join(dir, name))) continue;
        moveFile(join(dir, name), join(folder, name));
        present.add(name);
      }
      // Only the names that were delivered stay named (fromWireAnalysis drops the others).
      this.cache.writeJson(row.cache_key, deliveredName(row.task_id), toWireAnalysis(fromWireAnalysis(wire, folder, present)).analysis);
      if (!this.jobs.markDelivered(jobId, worker, nowIso())) return { status: 'duplicate', reason: 'already delivered; nothing was committed' };
      this.tasks.setWorker(row.task_id, worker);
      const waiting = this.take(jobId);
      if (waiting) this.attached.settle(jobId, waiting);
      return { status: 'committed' };
    } finally {
      this.busy.delete(jobId);
    }
  }

  /**
   * The job's row when `holder` holds it (started it, and no other key started it since); undefined for a
   * job this server does not know. Throws 403 `job_not_held` for any other key: only the key that started
   * a job reports its progress and delivers it.
   */
  held(jobId: string, holder: JobHolder): AnalysisJobRow | undefined {
    const row = parseJobId(jobId) ? this.jobs.get(jobId) : undefined;
    if (row && row.holder_key !== holder.key) {
      const holder = row.holder_key === null ? msg('job_not_started') : msg('job_held_by_other_worker');
      throw new Problem('forbidden', msg('job_not_held', { holder }), [], 'job_not_held');
    }
    return row;
  }

  /** Where a job's delivered files lie: the cache entry's folder for the server's own workers, a folder of the job's own for a remote worker. */
  private folderOf(row: AnalysisJobRow): string {
    const shared = this.cache.folder(row.cache_key);
    if (byServer(row)) return shared;
    const own = join(shared, `job-${row.task_id}`);
    mkdirSync(own, { recursive: true });
    return own;
  }

  /**
   * The delivered analysis of a job, once: its file is removed as it is taken (faces are biometric data,
   * and a cache entry of the analysis is written by the analyzer where it may keep one). Null when the job
   * was not delivered, or its analysis was taken before.
   */
  take(jobId: string): RunOutcome | null {
    const row = this.jobs.get(jobId);
    if (!row?.delivered_at) return null;
    const stored = this.cache.readJson<StoredAnalysis>(row.cache_key, deliveredName(row.task_id));
    if (!stored) return null;
    rmSync(join(this.cache.folder(row.cache_key), deliveredName(row.task_id)), { force: true });
    const folder = this.folderOf(row);
    const analysis = fromWireAnalysis(stored, folder, new Set(namedFiles(stored).filter((n) => existsSync(join(folder, n)))));
    return { analysis, shared: byServer(row) };
  }

  /** At start: the records and waiting analyses of jobs whose tasks have ended (or are gone). */
  prune(): number {
    const ended = this.jobs.ofEndedTasks();
    for (const row of ended) {
      rmSync(join(this.cache.folder(row.cache_key), deliveredName(row.task_id)), { force: true });
      this.jobs.delete(row.job_id);
    }
    return ended.length;
  }
}

/**
 * Whether a task may still want its job: queued (it runs again after a restart) or running.
 * @example
 * if (!taskWaits(store.tasks, task)) return { status: 'gone', reason: 'the task has ended' };
 */
export function taskWaits(tasks: Pick<TaskRepository, 'get'>, task: string): boolean {
  const status = tasks.get(task)?.status;
  return status === 'queued' || status === 'running';
}
