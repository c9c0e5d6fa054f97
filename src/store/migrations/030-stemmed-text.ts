import type { Db } from '../db.js';

/**
 * Issue 30, stems per language: the words tables now hold each word as its item's language stems it
 * (English Porter2 or German Snowball, done in JS) under a plain `unicode61` tokenizer, instead of FTS5's
 * English-only `porter`. Their text cannot be read back (contentless), so every collection's text is
 * marked for the rebuild from the stored items, episodes and segments that runs at start.
 */
export function m030StemmedText(db: Db): void {
  db.exec('UPDATE text_indexes SET ready = 0');
}
