import type { Db } from '../db.js';

/**
 * Issue 42: the words table and the word-part table also hold each hyphenated word written as one ("Wi-Fi"
 * as "wifi", "e-mail" as "email"; services/search/stems.ts indexText, tools/normalise.ts distinctWords), so a
 * query that writes it as one finds it. The tables are contentless: every collection's text is marked for
 * the rebuild from the stored items, episodes and segments that runs at start (as in migration 030).
 * @example
 * m037HyphenWords(db); // every text_indexes row has ready = 0
 */
export function m037HyphenWords(db: Db): void {
  db.exec('UPDATE text_indexes SET ready = 0');
}
