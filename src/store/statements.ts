import type Database from 'better-sqlite3';
import type { Db } from './connection.js';

/**
 * Prepares each SQL text once per connection and hands back the cached statement.
 * @example
 * const stmt = prepared(db, 'SELECT * FROM tasks WHERE id = ?');
 */
export function prepared(db: Db, sql: string): Database.Statement {
  const cache = cacheOf(caches, db);
  let stmt = cache.get(sql);
  if (!stmt) {
    stmt = db.prepare(sql);
    cache.set(sql, stmt);
  }
  return stmt;
}

const caches = new WeakMap<Db, Map<string, Database.Statement>>();

/** A connection's statement cache in `caches`, made on first use. */
function cacheOf<V>(caches: WeakMap<Db, Map<string, V>>, db: Db): Map<string, V> {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  return cache;
}

/** Raw-mode statements with their column names, per connection and SQL text (apart from `prepared`'s). */
const rawCaches = new WeakMap<Db, Map<string, { stmt: Database.Statement; names: string[] }>>();

/**
 * All rows of a query as plain objects, assembled in JS from better-sqlite3's raw rows. better-sqlite3
 * builds each row object in C++ one property at a time, which for the hundreds of rows a search reads
 * (its candidates' lines) was a third of the read: 0.72 against 0.51 ms for 300 segment rows
 * (docs/performance.md). A column name given twice keeps the last value, as better-sqlite3 does.
 * @example
 * const rows = allRows<SegmentRow>(db, 'SELECT * FROM segments WHERE episode_pk = ?', 7);
 */
export function allRows<T>(db: Db, sql: string, ...params: unknown[]): T[] {
  const cache = cacheOf(rawCaches, db);
  let entry = cache.get(sql);
  if (!entry) {
    const stmt = db.prepare(sql).raw(true);
    entry = { stmt, names: stmt.columns().map((c) => c.name) };
    cache.set(sql, entry);
  }
  const { stmt, names } = entry;
  const rows = stmt.all(...params) as unknown[][];
  const out = new Array<T>(rows.length);
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r];
    const o: Record<string, unknown> = {};
    for (let i = 0; i < names.length; i++) o[names[i]] = row[i];
    out[r] = o as T;
  }
  return out;
}
