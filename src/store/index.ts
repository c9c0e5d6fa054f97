import { dirname, join } from 'node:path';
import { openDatabase } from './connection.js';
import { VectorAnnIndexes } from './vector-ann.js';
import { storeOver, type Store } from './repositories.js';

export type { Repos, Store } from './repositories.js';

/**
 * Opens the SQLite file and builds the repositories over it.
 * @example
 * const store = openStore(join(dataDir, 'vidx.db'));
 */
export function openStore(file: string, dataDir = dirname(file)): Store {
  const db = openDatabase(file);
  // The vector indexes live beside the database file (an in-memory database keeps them in memory).
  const ann = new VectorAnnIndexes(db, file === ':memory:' ? null : join(dirname(file), 'vector-index'));
  return storeOver(db, ann, dataDir, () => {
    ann.close();
    db.close();
  });
}
