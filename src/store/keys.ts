import type { Db } from './connection.js';
import { prepared } from './statements.js';

/** What a key may do: everything (admin), its own collections and tasks (user), or only run jobs (worker). */
export type KeyRole = 'admin' | 'user' | 'worker';

/** A stored API key; the key itself is never stored, only its hash. */
export interface KeyRow {
  id: string;
  name: string;
  role: KeyRole;
  hash: string;
  created_at: string;
  last_used_at: string | null;
  /** A worker key's worker id: fixed when the key was made, else by its first heartbeat; null until then. */
  worker_id: string | null;
  /** The most jobs at once a worker key may announce; null: the default cap. */
  worker_concurrency: number | null;
}

/** What a new key is stored with: its worker fields are optional (only worker keys have them). */
export type NewKeyRow = Omit<KeyRow, 'last_used_at' | 'worker_id' | 'worker_concurrency'> & Partial<Pick<KeyRow, 'worker_id' | 'worker_concurrency'>>;

/**
 * The api_keys table.
 * @example
 * new KeyRepository(db).findByHash(sha256hex);
 */
export class KeyRepository {
  constructor(private readonly db: Db) {}

  insert(row: NewKeyRow): void {
    prepared(
      this.db,
      `INSERT INTO api_keys (id, name, role, hash, created_at, worker_id, worker_concurrency)
       VALUES (@id, @name, @role, @hash, @created_at, @worker_id, @worker_concurrency)`,
    ).run({ worker_id: null, worker_concurrency: null, ...row });
  }

  /**
   * Fixes a worker key to `workerId` unless it is fixed already or another key has that id in any case
   * (`Desk-1` is `desk-1`), in one statement; false when it was not fixed now.
   */
  bindWorker(id: string, workerId: string): boolean {
    return (
      prepared(
        this.db,
        `UPDATE api_keys SET worker_id = @workerId WHERE id = @id AND worker_id IS NULL
         AND NOT EXISTS (SELECT 1 FROM api_keys WHERE worker_id = @workerId COLLATE NOCASE)`,
      ).run({ id, workerId }).changes > 0
    );
  }

  /**
   * A key (other than `exceptId`) whose worker id is `workerId` compared without case, if any. Ids that
   * differ only in case and were both fixed before vidx compared them so stay each with its key.
   */
  byWorker(workerId: string, exceptId = ''): KeyRow | undefined {
    return prepared(this.db, 'SELECT * FROM api_keys WHERE worker_id = ? COLLATE NOCASE AND id != ? ORDER BY created_at, id LIMIT 1').get(workerId, exceptId) as KeyRow | undefined;
  }

  /** Inserts or replaces the hash, role and name of a key with a fixed id (the VIDX_ADMIN_KEY key, which earlier versions named after the setting). */
  upsert(row: NewKeyRow): void {
    prepared(
      this.db,
      `INSERT INTO api_keys (id, name, role, hash, created_at) VALUES (@id, @name, @role, @hash, @created_at)
       ON CONFLICT(id) DO UPDATE SET hash = excluded.hash, role = excluded.role, name = excluded.name`,
    ).run(row);
  }

  findByHash(hash: string): KeyRow | undefined {
    return prepared(this.db, 'SELECT * FROM api_keys WHERE hash = ?').get(hash) as KeyRow | undefined;
  }

  get(id: string): KeyRow | undefined {
    return prepared(this.db, 'SELECT * FROM api_keys WHERE id = ?').get(id) as KeyRow | undefined;
  }

  list(): KeyRow[] {
    return prepared(this.db, 'SELECT * FROM api_keys ORDER BY created_at, id').all() as KeyRow[];
  }

  count(): number {
    return (prepared(this.db, 'SELECT count(*) AS n FROM api_keys').get() as { n: number }).n;
  }

  delete(id: string): boolean {
    return prepared(this.db, 'DELETE FROM api_keys WHERE id = ?').run(id).changes > 0;
  }

  touch(id: string, at: string): void {
    prepared(this.db, 'UPDATE api_keys SET last_used_at = ? WHERE id = ?').run(at, id);
  }
}
