import type { Db } from './connection.js';
import { prepared } from './statements.js';

/** An episode's words in one text, for topic discovery. */
export interface EpisodeTextRow {
  media_id: string;
  idx: number;
  start: number;
  end: number;
  text: string;
}

/**
 * Read-only queries for collection exploration (topics and questions).
 * @example
 * new ExploreRepository(db).episodeTexts(collection.pk, 400);
 */
export class ExploreRepository {
  constructor(private readonly db: Db) {}

  /**
   * Up to `limit` episodes of a collection (newest items first) with their transcript, screen text and
   * tags. Not the item title: it repeats in every episode of the item and would prefix every topic.
   */
  episodeTexts(collectionPk: number, limit: number): EpisodeTextRow[] {
    return prepared(
      this.db,
      `SELECT i.media_id, e.idx, e.start, e.end,
              e.screen_text || ' ' || e.tags || ' ' ||
              coalesce((SELECT group_concat(s.text, ' ') FROM segments s WHERE s.episode_pk = e.pk AND s.kind = 'audio'), '') AS text
       FROM episodes e JOIN items i ON i.pk = e.item_pk
       WHERE e.collection_pk = ?
       ORDER BY i.cursor DESC, e.idx
       LIMIT ?`,
    ).all(collectionPk, limit) as EpisodeTextRow[];
  }
}
