import type { Db } from '../db.js';

/**
 * Tasks bind to the collection they work on by its internal key, not its id: a collection's id is free
 * again the moment it is deleted, and another owner's new collection of that id must inherit nothing
 * (issue 21). Tasks written before this migration are bound from their stored input where that names a
 * live collection (index and explore tasks by id, scans through their folder).
 *
 * The key must then never be handed out twice: SQLite gives a new row the highest rowid + 1, so deleting
 * the newest collection would free its key for the next one. `collection_pk_high` remembers the highest
 * key ever given (the collections repository takes the next one from it).
 */
export function m011TaskCollection(db: Db): void {
  db.exec(`
    CREATE TABLE collection_pk_high (high INTEGER NOT NULL);
    INSERT INTO collection_pk_high (high) SELECT coalesce(max(pk), 0) FROM collections;

    ALTER TABLE tasks ADD COLUMN collection_pk INTEGER;
    CREATE INDEX tasks_collection ON tasks(collection_pk) WHERE collection_pk IS NOT NULL;

    UPDATE tasks SET collection_pk = (
      SELECT pk FROM collections
      WHERE collection_id = coalesce(json_extract(tasks.data, '$.collection'), json_extract(tasks.data, '$.request.collection'))
        AND deleting = 0
    ) WHERE json_valid(data) AND endpoint IN ('/index', '/search_clusters', '/collection_suggestions');

    UPDATE tasks SET collection_pk = (
      SELECT collection_pk FROM folders WHERE folder_id = json_extract(tasks.data, '$.folder_id')
    ) WHERE json_valid(data) AND endpoint = '/folders/scan';
  `);
}
