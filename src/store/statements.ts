import type Database from 'better-sqlite3';
import type { Db } from './connection.js';

/**
 * Prepares each SQL text once per connection and hands back the cached statement.
 * @example
 * const stmt = prepared(db, 'SELECT * FROM tasks WHERE id = ?');
 */
export function prepared(db: Db, sql: string): Database.Statement {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  let stmt = cache.get(sql);
  if (!stmt) {
    stmt = db.prepare(sql);
    cache.set(sql, stmt);
  }
  return stmt;
}

const caches = new WeakMap<Db, Map<string, Database.Statement>>();
