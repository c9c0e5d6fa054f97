/**
 * The SQL that ranks by bm25 only the newest `@wanted` matches of an FTS5 condition, best first, at most
 * `@limit`. bm25 reads each ranked match's column sizes (~2 µs a match); the scalar subquery runs once and
 * finds the rowid of the `@wanted`-th newest match from the doclist alone, so a word in most episodes
 * costs about what a word in `@wanted` does. Parameters: those of `where`, `@wanted` and `@limit`.
 * `bm25Weights` is bm25()'s weight arguments, one per column (see bm25Weights in text-index.ts).
 * @example
 * prepared(db, newestRankedSql('fts_words_3', bm25Weights(ranking, FTS_COLUMNS), 'fts_words_3 MATCH @match'))
 *   .all({ match: '"appl"', wanted: 1000, limit: 30 }); // [{ pk, bm25 }, …]
 */
export function newestRankedSql(table: string, bm25Weights: string, where: string): string {
  return `SELECT rowid AS pk, bm25(${table}, ${bm25Weights}) AS bm25 FROM ${table}
    WHERE ${where} AND rowid >= coalesce((SELECT rowid FROM ${table} WHERE ${where} ORDER BY rowid DESC LIMIT 1 OFFSET @wanted - 1), 0)
    ORDER BY bm25 LIMIT @limit`;
}
