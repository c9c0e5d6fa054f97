import type { Db } from '../db.js';

/**
 * Issue 34: a task failure may carry its message's parameters (JSON), so a page says it in its own
 * language from the shared message tables: a model pull without a hub names the hub it tried.
 */
export function m034TaskErrorParams(db: Db): void {
  db.exec('ALTER TABLE tasks ADD COLUMN error_params TEXT');
}
