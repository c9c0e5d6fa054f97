import type { Db } from '../db.js';

/**
 * Tasks are stored by kind (index, analyze, folder_scan, …) instead of the path of the endpoint that made
 * them: the path is the HTTP layer's to show (issue 24), and a folder scan's path names its collection and
 * folder. Scan tasks also record their collection's id, which that path needs.
 */
export function m013TaskKinds(db: Db): void {
  db.exec(`
    ALTER TABLE tasks ADD COLUMN kind TEXT NOT NULL DEFAULT 'analyze';
    UPDATE tasks SET kind = CASE endpoint
      WHEN '/index' THEN 'index' WHEN '/analyze' THEN 'analyze' WHEN '/folders/scan' THEN 'folder_scan'
      WHEN '/search_clusters' THEN 'clusters' WHEN '/collection_suggestions' THEN 'suggestions' ELSE ltrim(endpoint, '/') END;
    UPDATE tasks SET data = json_set(data, '$.collection', (SELECT collection_id FROM collections WHERE pk = tasks.collection_pk))
      WHERE kind = 'folder_scan' AND json_valid(data) AND collection_pk IS NOT NULL;
    ALTER TABLE tasks DROP COLUMN endpoint;
  `);
}
