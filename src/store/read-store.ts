import { dirname } from 'node:path';
import { openReadOnlyDatabase } from './connection.js';
import { storeOver, type Store } from './repositories.js';

/**
 * Opens the vidx database of the request thread's store for reading only: a search thread's store. It keeps
 * no vector index (the request thread looks nearest vectors up for it) and any write through it fails.
 * @example
 * const store = openReadStore(join(dataDir, 'vidx.db'));
 * store.search.onOneView(() => store.items.find(collectionPk, 'clip'));
 */
export function openReadStore(file: string, dataDir = dirname(file)): Store {
  const db = openReadOnlyDatabase(file);
  return storeOver(db, null, dataDir, () => db.close());
}
