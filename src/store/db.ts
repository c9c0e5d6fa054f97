import type Database from 'better-sqlite3';

/**
 * The database connection every repository and migration is handed: its own file, so the migrations can name
 * it without importing the connection module that runs them.
 * @example
 * function m099Example(db: Db): void { db.exec('ALTER TABLE items ADD COLUMN example TEXT'); }
 */
export type Db = Database.Database;
