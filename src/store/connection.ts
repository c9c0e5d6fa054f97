import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { migrate } from './migrations/index.js';

/** The one SQLite handle type used across the store. */
export type Db = Database.Database;

/**
 * Opens (or creates) the vidx database, sets the connection pragmas once, loads sqlite-vec
 * and brings the schema up to date.
 * @example
 * const db = openDatabase('/var/lib/vidx/vidx.db');
 */
export function openDatabase(file: string): Db {
  const db = new Database(file);
  // WAL lets readers run beside the single writer; FULL sync makes an acknowledged write
  // survive a crash of the machine, not only of the process.
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  sqliteVec.load(db);
  migrate(db);
  return db;
}

/**
 * Runs `fn` in a write transaction (BEGIN IMMEDIATE), so concurrent writers queue instead of failing.
 * @example
 * inTransaction(db, () => { items.insert(a); items.insert(b); });
 */
export function inTransaction<T>(db: Db, fn: () => T): T {
  return db.transaction(fn).immediate();
}
