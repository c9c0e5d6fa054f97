import type { Db } from './connection.js';
import { prepared } from './statements.js';

/** Some items of a collection with such a warning, and how many there are in all. */
export interface WarnedItems {
  total: number;
  /** Up to the asked number, by title (else media_id). */
  items: { media_id: string; title: string | null }[];
}

/**
 * Indexed items whose analysis left a given warning: the analysis records a skipped transcript only as such a
 * warning (item_analysis.warnings, a JSON array), so it is read from there. A warning is a keyed message
 * (`{"key": …, "params": …}`), or, in items stored before warnings were keyed, English words that begin
 * with a known text.
 * @example
 * const repo = new AnalysisWarnings(store.db);
 * repo.some(collectionPk, null, { key: 'analysis_speech_not_transcribed', prefix: 'speech found but not transcribed' }, 3);
 * // { total: 5, items: [{ media_id: 'memo', title: 'Memo' }, …] }
 */
export class AnalysisWarnings {
  constructor(private readonly db: Db) {}

  /**
   * The items of the collection (or only `itemPk`, when given) that have no transcript and a warning of `key`
   * (or, older, words starting with `prefix`): the first `limit` by title, and how many there are (a notice
   * names a few and counts the rest).
   */
  some(collectionPk: number, itemPk: number | null, warning: { key: string; prefix: string }, limit: number): WarnedItems {
    const pattern = `${warning.prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const rows = prepared(
      this.db,
      `SELECT i.media_id, i.title, COUNT(*) OVER () AS total FROM items i JOIN item_analysis a ON a.item_pk = i.pk
       WHERE i.collection_pk = @collectionPk AND (@itemPk IS NULL OR i.pk = @itemPk) AND a.transcript_source = 'none'
         AND EXISTS (SELECT 1 FROM json_each(a.warnings) w
                     WHERE (w.type = 'text' AND w.value LIKE @pattern ESCAPE '\\') OR (w.type = 'object' AND json_extract(w.value, '$.key') = @key))
       ORDER BY COALESCE(i.title, i.media_id), i.media_id
       LIMIT @limit`,
    ).all({ collectionPk, itemPk, pattern, key: warning.key, limit }) as { media_id: string; title: string | null; total: number }[];
    return { total: rows[0]?.total ?? 0, items: rows.map((r) => ({ media_id: r.media_id, title: r.title })) };
  }
}
