import type { Db } from '../db.js';

/**
 * Issue 27, analyses on `vidx worker` processes: keys of the role `worker` (SQLite cannot change a CHECK, so
 * api_keys is rebuilt with the same rows), the worker that ran a task's latest job (`tasks.worker`), and one
 * row per job a worker delivered (`analysis_jobs`: a second delivery of the same job commits nothing).
 */
export function m027Workers(db: Db): void {
  db.exec(`
    CREATE TABLE api_keys_next (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      role TEXT NOT NULL CHECK (role IN ('admin', 'user', 'worker')),
      hash TEXT NOT NULL UNIQUE,
      created_at TEXT NOT NULL,
      last_used_at TEXT
    );
    INSERT INTO api_keys_next (id, name, role, hash, created_at, last_used_at)
      SELECT id, name, role, hash, created_at, last_used_at FROM api_keys;
    DROP TABLE api_keys;
    ALTER TABLE api_keys_next RENAME TO api_keys;

    ALTER TABLE tasks ADD COLUMN worker TEXT;

    CREATE TABLE analysis_jobs (
      job_id TEXT PRIMARY KEY,
      task_id TEXT NOT NULL,
      cache_key TEXT NOT NULL,
      worker TEXT,
      delivered_at TEXT,
      duplicates INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX analysis_jobs_task ON analysis_jobs(task_id);
  `);
}
