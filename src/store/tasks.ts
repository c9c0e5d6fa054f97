import type { Db } from './connection.js';
import { prepared } from './statements.js';

/** Lifecycle of a task: queued → running → completed | failed; a retry puts a failed task back to queued. */
export type TaskStatus = 'queued' | 'running' | 'completed' | 'failed';

/** A tasks row as stored (data and result are JSON text). */
export interface TaskRow {
  id: string;
  owner: string;
  /** What the task does (services/task-kinds.ts): index, analyze, folder_scan, reindex, clusters, suggestions. */
  kind: string;
  status: TaskStatus;
  data: string;
  progress: number;
  /** The step's name ('on-screen text'); `stage_item` the item a multi-item task is on (JSON), if any. */
  stage: string | null;
  stage_item?: string | null;
  result: string | null;
  /** Why it failed, with a code and whether a retry may help (null while it has not failed). */
  error: string | null;
  error_code?: string | null;
  error_retryable?: number | null;
  /** The failure message's parameters as JSON (a page words the code with them), if it has any. */
  error_params?: string | null;
  attempts: number;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  finished_at: string | null;
  /** The collection the task works on, by its internal key (never its reusable id); null for none. */
  collection_pk: number | null;
  /** The `vidx worker` (or the server's own, `local`) that took the task's latest analysis job; null for none. */
  worker?: string | null;
}

/** Filters for listing tasks; `owner` null means every owner (admins). */
export interface TaskFilter {
  owner: string | null;
  status?: TaskStatus;
  kind?: string;
  limit: number;
  offset: number;
}

/**
 * The tasks table.
 * @example
 * new TaskRepository(db).setRunning(id, now);
 */
export class TaskRepository {
  constructor(private readonly db: Db) {}

  insert(row: TaskRow): void {
    prepared(
      this.db,
      `INSERT INTO tasks (id, owner, kind, status, data, progress, stage, result, error, attempts, created_at, updated_at, started_at, finished_at, collection_pk)
       VALUES (@id, @owner, @kind, @status, @data, @progress, @stage, @result, @error, @attempts, @created_at, @updated_at, @started_at, @finished_at, @collection_pk)`,
    ).run(row);
  }

  get(id: string): TaskRow | undefined {
    return prepared(this.db, 'SELECT * FROM tasks WHERE id = ?').get(id) as TaskRow | undefined;
  }

  list(f: TaskFilter): { rows: TaskRow[]; total: number } {
    const where: string[] = [];
    const args: Record<string, unknown> = { limit: f.limit, offset: f.offset };
    if (f.owner !== null) {
      where.push('owner = @owner');
      args.owner = f.owner;
    }
    if (f.status) {
      where.push('status = @status');
      args.status = f.status;
    }
    if (f.kind) {
      where.push('kind = @kind');
      args.kind = f.kind;
    }
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const rows = prepared(this.db, `SELECT * FROM tasks ${clause} ORDER BY created_at DESC, id DESC LIMIT @limit OFFSET @offset`).all(
      args,
    ) as TaskRow[];
    const { limit: _l, offset: _o, ...countArgs } = args;
    const total = (prepared(this.db, `SELECT count(*) AS n FROM tasks ${clause}`).get(countArgs) as { n: number }).n;
    return { rows, total };
  }

  countByStatus(owner: string | null): Record<string, number> {
    const rows = (
      owner === null
        ? prepared(this.db, 'SELECT status, count(*) AS n FROM tasks GROUP BY status').all()
        : prepared(this.db, 'SELECT status, count(*) AS n FROM tasks WHERE owner = ? GROUP BY status').all(owner)
    ) as { status: string; n: number }[];
    return Object.fromEntries(rows.map((r) => [r.status, r.n]));
  }

  /** Queued tasks in the order they were created: the order they run in. */
  listQueued(): TaskRow[] {
    return prepared(this.db, "SELECT * FROM tasks WHERE status = 'queued' ORDER BY created_at, id").all() as TaskRow[];
  }

  /** Ids of the queued and running tasks bound to a collection. */
  unfinishedForCollection(collectionPk: number): { id: string; status: TaskStatus }[] {
    return prepared(this.db, "SELECT id, status FROM tasks WHERE collection_pk = ? AND status IN ('queued', 'running')").all(collectionPk) as {
      id: string;
      status: TaskStatus;
    }[];
  }

  listRunning(): TaskRow[] {
    return prepared(this.db, "SELECT * FROM tasks WHERE status = 'running'").all() as TaskRow[];
  }

  /** Moves a queued task to running; false when it is no longer queued (deleted meanwhile). */
  markRunning(id: string, at: string): boolean {
    return (
      prepared(
        this.db,
        "UPDATE tasks SET status = 'running', progress = 0, stage = 'starting', stage_item = NULL, attempts = attempts + 1, started_at = ?, updated_at = ? WHERE id = ? AND status = 'queued'",
      ).run(at, at, id).changes > 0
    );
  }

  /**
   * Progress is advisory (a restarted task starts again anyway), so its commits do not wait for fsync: the
   * one exception to the connection's `synchronous = FULL`. Under heavy disk writes an fsync took hundreds of
   * milliseconds here, and a running analysis reports progress several times a second on the request thread.
   */
  setProgress(id: string, progress: number, stage: string | null, item: string | null, at: string): void {
    this.db.pragma('synchronous = NORMAL');
    try {
      prepared(this.db, "UPDATE tasks SET progress = ?, stage = coalesce(?, stage), stage_item = ?, updated_at = ? WHERE id = ? AND status = 'running'").run(
        progress,
        stage,
        item,
        at,
        id,
      );
    } finally {
      this.db.pragma('synchronous = FULL');
    }
  }

  complete(id: string, result: string, at: string): void {
    prepared(
      this.db,
      "UPDATE tasks SET status = 'completed', progress = 1, stage = 'done', stage_item = NULL, result = ?, error = NULL, error_code = NULL, error_retryable = NULL, error_params = NULL, finished_at = ?, updated_at = ? WHERE id = ?",
    ).run(result, at, at, id);
  }

  fail(id: string, error: { message: string; code: string; retryable: boolean; params?: Record<string, string> }, at: string): void {
    const params = error.params ? JSON.stringify(error.params) : null;
    prepared(
      this.db,
      "UPDATE tasks SET status = 'failed', stage = 'failed', stage_item = NULL, error = ?, error_code = ?, error_retryable = ?, error_params = ?, result = NULL, finished_at = ?, updated_at = ? WHERE id = ?",
    ).run(error.message, error.code, error.retryable ? 1 : 0, params, at, at, id);
  }

  /** Back to the queue: after a retry or after the server stopped while it ran. */
  requeue(id: string, stage: string, at: string): void {
    prepared(
      this.db,
      "UPDATE tasks SET status = 'queued', progress = 0, stage = ?, stage_item = NULL, result = NULL, error = NULL, error_code = NULL, error_retryable = NULL, error_params = NULL, started_at = NULL, finished_at = NULL, updated_at = ? WHERE id = ?",
    ).run(stage, at, id);
  }

  /** Names the worker that took one of the task's analysis jobs. */
  setWorker(id: string, worker: string): void {
    prepared(this.db, 'UPDATE tasks SET worker = ? WHERE id = ?').run(worker, id);
  }

  delete(id: string): boolean {
    return prepared(this.db, 'DELETE FROM tasks WHERE id = ?').run(id).changes > 0;
  }

  /** The uploads tasks hold, whatever their status, as stored: `upload.stored`, or `upload.path` in older rows. */
  uploadNames(): string[] {
    const rows = prepared(
      this.db,
      `SELECT name FROM (SELECT coalesce(json_extract(data, '$.upload.stored'), json_extract(data, '$.upload.path')) AS name
       FROM tasks WHERE json_valid(data)) WHERE typeof(name) = 'text'`,
    ).all() as { name: string }[];
    return rows.map((r) => r.name);
  }
}
