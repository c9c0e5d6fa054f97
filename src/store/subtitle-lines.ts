import type { Db } from './connection.js';
import { prepared } from './statements.js';

/** A subtitle_lines row: a line of one of an item's other subtitle tracks, in the episode it belongs to. */
export interface SubtitleLineRow {
  pk: number;
  episode_pk: number;
  /** The track's base language code (`de`, `fr`, `und`). */
  language: string;
  /** Position within the track's lines of the episode. */
  seq: number;
  start: number;
  end: number;
  text: string;
}

/**
 * The lines of items' other subtitle tracks (migration 031); the transcript's own lines stay in `segments`.
 * Rows go with their episode (ON DELETE CASCADE). Writes never open their own transaction.
 * @example
 * const lines = new SubtitleLineRepository(db);
 * lines.insert({ episode_pk: 7, language: 'de', seq: 0, start: 6.8, end: 9, text: 'Am Abend wird es regnen.' });
 * lines.of([7], 'de'); // [{ pk: 1, episode_pk: 7, language: 'de', … }]
 */
export class SubtitleLineRepository {
  constructor(private readonly db: Db) {}

  insert(row: Omit<SubtitleLineRow, 'pk'>): void {
    prepared(this.db, 'INSERT INTO subtitle_lines (episode_pk, language, seq, start, end, text) VALUES (@episode_pk, @language, @seq, @start, @end, @text)').run(row);
  }

  /** The lines of the given episodes (of one language, when given), by episode, language and order. */
  of(episodePks: number[], language: string | null = null): SubtitleLineRow[] {
    if (episodePks.length === 0) return [];
    return prepared(
      this.db,
      `SELECT * FROM subtitle_lines WHERE episode_pk IN (SELECT value FROM json_each(@pks)) AND (@language IS NULL OR language = @language)
       ORDER BY episode_pk, language, seq`,
    ).all({ pks: JSON.stringify(episodePks), language }) as SubtitleLineRow[];
  }
}
