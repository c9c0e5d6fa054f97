import type { Db } from '../connection.js';
import { m001Foundation } from './001-foundation.js';
import { m002Search } from './002-search.js';
import { m003Folders } from './003-folders.js';

/** One schema step; each runs in its own transaction and bumps `user_version` by one. */
export type Migration = (db: Db) => void;

/** Ordered: index + 1 is the schema version a migration produces. Append only. */
export const migrations: readonly Migration[] = [m001Foundation, m002Search, m003Folders];

/**
 * Applies the missing migrations in order; refuses a database written by a newer vidx.
 * @example
 * migrate(db); // user_version === migrations.length afterwards
 */
export function migrate(db: Db): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > migrations.length) {
    throw new Error(
      `database schema version ${current} is newer than this vidx understands (${migrations.length}); upgrade vidx`,
    );
  }
  for (let v = current; v < migrations.length; v++) {
    db.transaction(() => {
      migrations[v](db);
      db.pragma(`user_version = ${v + 1}`);
    }).immediate();
  }
}
