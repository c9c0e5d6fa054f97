import { closeSync, existsSync, openSync } from 'node:fs';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import type { Db } from './db.js';
import { migrate } from './migrations/index.js';

export type { Db } from './db.js';

/**
 * Where the native parts come from when not from node_modules (the single binary extracts its own).
 * @example
 * const native: SqliteNative = { nativeBinding: addon, vecExtension: '/cache/vec0.so' };
 */
export interface SqliteNative {
  /** better-sqlite3's addon, already loaded (`process.dlopen`), or the path of its `.node` file. */
  nativeBinding?: string | object;
  /** Path of sqlite-vec's loadable extension (vec0.so). */
  vecExtension?: string;
}

let nativeDefaults: SqliteNative = {};

/**
 * Sets the native parts every later {@link openDatabase} uses unless given its own; called once at start.
 * @example
 * useSqliteNative({ nativeBinding: addon, vecExtension: join(dir, 'vec0.so') });
 */
export function useSqliteNative(native: SqliteNative): void {
  nativeDefaults = native;
}

/**
 * Opens (or creates) the vidx database, sets the connection pragmas once, loads sqlite-vec
 * and brings the schema up to date.
 * @example
 * const db = openDatabase('/var/lib/vidx/vidx.db');
 */
export function openDatabase(file: string, native: SqliteNative = nativeDefaults): Db {
  // The database holds key hashes and webhook secrets: created 0600, and SQLite gives its WAL and SHM
  // files the same mode as the database file.
  if (file !== ':memory:' && !existsSync(file)) closeSync(openSync(file, 'a', 0o600));
  // The cast: @types/better-sqlite3 types nativeBinding as a string, while the library also takes the addon object.
  const db = new Database(file, native.nativeBinding ? { nativeBinding: native.nativeBinding as string } : {});
  // WAL lets readers run beside the single writer; FULL sync makes an acknowledged write
  // survive a crash of the machine, not only of the process.
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  if (native.vecExtension) db.loadExtension(native.vecExtension);
  else sqliteVec.load(db);
  migrate(db);
  return db;
}

/**
 * Opens an existing vidx database for reading only (a search thread's connection): the same native parts
 * and sqlite-vec, no schema change (the writer's connection brought it up to date). WAL lets it read
 * beside the writer, each read transaction on one committed view.
 * @example
 * const db = openReadOnlyDatabase('/var/lib/vidx/vidx.db');
 */
export function openReadOnlyDatabase(file: string, native: SqliteNative = nativeDefaults): Db {
  const db = new Database(file, { readonly: true, fileMustExist: true, ...(native.nativeBinding ? { nativeBinding: native.nativeBinding as string } : {}) });
  db.pragma('busy_timeout = 5000');
  if (native.vecExtension) db.loadExtension(native.vecExtension);
  else sqliteVec.load(db);
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

/** Pages of WAL after which a light transaction's commit copies them into the database (SQLite's default: 1000). */
const LIGHT_CHECKPOINT_PAGES = 256;

/**
 * Runs `fn` in a write transaction whose commit does not wait for fsync and, when the WAL has grown past
 * about a megabyte, copies it back into the database then (SQLite's own step, which waits for fsync twice
 * and grows with the WAL: at its default of 1000 pages it held a commit 30–120 ms here). For the slices of a
 * write whose rows nobody reads until a last transaction with the connection's `synchronous = FULL` makes
 * them visible: that commit's fsync makes every earlier one durable too (one WAL file), and a crash before
 * it loses only rows that were never shown.
 * @example
 * inLightTransaction(db, () => writeSomeRows());
 */
export function inLightTransaction<T>(db: Db, fn: () => T): T {
  db.pragma('synchronous = NORMAL');
  db.pragma(`wal_autocheckpoint = ${LIGHT_CHECKPOINT_PAGES}`);
  try {
    return db.transaction(fn).immediate();
  } finally {
    db.pragma('synchronous = FULL');
    db.pragma('wal_autocheckpoint = 1000');
  }
}
