import type { Db } from '../db.js';

/**
 * Issue 32, a worker key is one worker and a job belongs to the key that started it: each key may carry the
 * worker id it is fixed to (set when the key is made, else by its first heartbeat; unique among keys) and
 * the most jobs at once it may announce; each job records the key and worker holding it and until when
 * (epoch ms; renewed by that worker's heartbeats), so another key may start it only after that lease ran out.
 */
export function m032WorkerTrust(db: Db): void {
  db.exec(`
    ALTER TABLE api_keys ADD COLUMN worker_id TEXT;
    ALTER TABLE api_keys ADD COLUMN worker_concurrency INTEGER;
    CREATE UNIQUE INDEX api_keys_worker_id ON api_keys(worker_id) WHERE worker_id IS NOT NULL;

    ALTER TABLE analysis_jobs ADD COLUMN holder_key TEXT;
    ALTER TABLE analysis_jobs ADD COLUMN holder_worker TEXT;
    ALTER TABLE analysis_jobs ADD COLUMN held_until INTEGER;
  `);
}
