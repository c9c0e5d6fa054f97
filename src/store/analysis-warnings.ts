import type { Db } from './connection.js';
import { prepared } from './statements.js';

/**
 * Indexed items whose analysis left a warning that starts with a given text: the analysis records a skipped
 * transcript only as such a warning (item_analysis.warnings, a JSON array of strings), so it is read from there.
 * @example
 * const repo = new AnalysisWarnings(store.db);
 * repo.any(collectionPk, null, 'speech found but not transcribed'); // true
 */
export class AnalysisWarnings {
  constructor(private readonly db: Db) {}

  /**
   * Whether an item of the collection (or only `itemPk`, when given) has no transcript and a warning
   * starting with `prefix`. Stops at the first such item.
   */
  any(collectionPk: number, itemPk: number | null, prefix: string): boolean {
    const pattern = `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const row = prepared(
      this.db,
      `SELECT 1 FROM items i JOIN item_analysis a ON a.item_pk = i.pk
       WHERE i.collection_pk = @collectionPk AND (@itemPk IS NULL OR i.pk = @itemPk) AND a.transcript_source = 'none'
         AND EXISTS (SELECT 1 FROM json_each(a.warnings) w WHERE w.value LIKE @pattern ESCAPE '\\')
       LIMIT 1`,
    ).get({ collectionPk, itemPk, pattern });
    return row !== undefined;
  }
}
