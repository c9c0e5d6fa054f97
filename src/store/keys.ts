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
}

/**
 * The api_keys table.
 * @example
 * new KeyRepository(db).findByHash(sha256hex);
 */
export class KeyRepository {
  constructor(private readonly db: Db) {}

  insert(row: Omit<KeyRow, 'last_used_at'>): void {
    prepared(this.db, 'INSERT INTO api_keys (id, name, role, hash, created_at) VALUES (@id, @name, @role, @hash, @created_at)').run(row);
  }

  /** Inserts or replaces the hash of a key with a fixed id (the VIDX_ADMIN_KEY key). */
  upsert(row: Omit<KeyRow, 'last_used_at'>): void {
    prepared(
      this.db,
      `INSERT INTO api_keys (id, name, role, hash, created_at) VALUES (@id, @name, @role, @hash, @created_at)
       ON CONFLICT(id) DO UPDATE SET hash = excluded.hash, role = excluded.role`,
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
