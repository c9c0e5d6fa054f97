import type { Db } from './connection.js';
import { prepared } from './statements.js';

/** One analysis job the queue ran: its task, its cache key, and who delivered it when. */
export interface AnalysisJobRow {
  job_id: string;
  task_id: string;
  cache_key: string;
  /** The worker whose delivery was committed; null until one was. */
  worker: string | null;
  delivered_at: string | null;
  /** Deliveries of the job after the committed one: each was answered and committed nothing. */
  duplicates: number;
  /** The key holding the job (`local` for the server's own workers), the worker it started it as, and until when (epoch ms). */
  holder_key: string | null;
  holder_worker: string | null;
  held_until: number | null;
}

/** Who starts, runs and delivers a job: a worker key's id (`local` for the server's own workers) and the worker's id. */
export interface JobHolder {
  key: string;
  worker: string;
}

/**
 * The analysis_jobs table: which jobs were delivered, so a second delivery of a job commits nothing.
 * @example
 * const jobs = new AnalysisJobRepository(db);
 * jobs.markDelivered(jobId, 'desk-1a2b', now); // true the first time, false after
 */
export class AnalysisJobRepository {
  constructor(private readonly db: Db) {}

  get(jobId: string): AnalysisJobRow | undefined {
    return prepared(this.db, 'SELECT * FROM analysis_jobs WHERE job_id = ?').get(jobId) as AnalysisJobRow | undefined;
  }

  /** Records a job about to be queued (again): not delivered. */
  reset(jobId: string, taskId: string, cacheKey: string): void {
    prepared(
      this.db,
      `INSERT INTO analysis_jobs (job_id, task_id, cache_key) VALUES (?, ?, ?)
       ON CONFLICT(job_id) DO UPDATE SET worker = NULL, delivered_at = NULL, holder_key = NULL, holder_worker = NULL, held_until = NULL`,
    ).run(jobId, taskId, cacheKey);
  }

  /**
   * Gives the job to `holder` until `until` (epoch ms): when nobody holds it, the same key holds it, or the
   * holder's lease ran out by `now`. False when another key holds it still.
   */
  hold(jobId: string, holder: JobHolder, until: number, now: number): boolean {
    return (
      prepared(
        this.db,
        `UPDATE analysis_jobs SET holder_key = @key, holder_worker = @worker, held_until = @until
         WHERE job_id = @jobId AND (holder_key IS NULL OR holder_key = @key OR held_until < @now)`,
      ).run({ jobId, key: holder.key, worker: holder.worker, until, now }).changes > 0
    );
  }

  /** Extends the lease of those of `jobIds` that `key` holds (its worker's heartbeat names them). */
  renew(jobIds: string[], key: string, until: number): void {
    if (jobIds.length === 0) return;
    const stmt = prepared(this.db, 'UPDATE analysis_jobs SET held_until = ? WHERE job_id = ? AND holder_key = ? AND delivered_at IS NULL');
    this.db.transaction(() => {
      for (const id of jobIds) stmt.run(until, id, key);
    })();
  }

  /** Marks the job delivered by `worker`; false (and one more duplicate counted) when it already was. */
  markDelivered(jobId: string, worker: string, at: string): boolean {
    return this.db.transaction(() => {
      const done = prepared(this.db, 'UPDATE analysis_jobs SET worker = ?, delivered_at = ? WHERE job_id = ? AND delivered_at IS NULL').run(worker, at, jobId);
      if (done.changes > 0) return true;
      prepared(this.db, 'UPDATE analysis_jobs SET duplicates = duplicates + 1 WHERE job_id = ?').run(jobId);
      return false;
    })();
  }

  /** Jobs of tasks that are no longer queued or running (or gone): what a start may clean up. */
  ofEndedTasks(): AnalysisJobRow[] {
    return prepared(
      this.db,
      `SELECT j.* FROM analysis_jobs j LEFT JOIN tasks t ON t.id = j.task_id
       WHERE t.id IS NULL OR t.status NOT IN ('queued', 'running')`,
    ).all() as AnalysisJobRow[];
  }

  delete(jobId: string): void {
    prepared(this.db, 'DELETE FROM analysis_jobs WHERE job_id = ?').run(jobId);
  }
}
