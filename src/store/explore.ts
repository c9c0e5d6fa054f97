import type { Db } from './connection.js';
import { prepared } from './statements.js';

/** An episode's words in one text, for topic discovery, and where they come from. */
export interface EpisodeTextRow {
  media_id: string;
  idx: number;
  start: number;
  end: number;
  /** What was shown, its tags and what was said, in one text. */
  text: string;
  /** What was said (the transcript's lines). */
  spoken: string;
  /** The on-screen text. */
  shown: string;
  /** The visual tags (a JSON list of words). */
  tags: string;
  /** What the item is: a photo has no time and nothing said. */
  media_type: 'video' | 'audio' | 'image';
  /** The item's title, which says what the item is about. */
  title: string | null;
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
   * tags. The item title comes apart from the text: it repeats in every episode of the item and would
   * prefix every topic, but it tells which of an item's phrases names its subject.
   */
  episodeTexts(collectionPk: number, limit: number): EpisodeTextRow[] {
    return prepared(
      this.db,
      `SELECT media_id, idx, start, end, title, media_type, shown, tags, spoken, shown || ' ' || tags || ' ' || spoken AS text
       FROM (SELECT i.media_id, e.idx, e.start, e.end, i.title, i.type AS media_type, i.cursor, e.screen_text AS shown, e.tags,
                    coalesce((SELECT group_concat(s.text, ' ') FROM segments s WHERE s.episode_pk = e.pk AND s.kind = 'audio'), '') AS spoken
             FROM episodes e JOIN items i ON i.pk = e.item_pk
             WHERE e.collection_pk = ?
             ORDER BY i.cursor DESC, e.idx
             LIMIT ?)
       ORDER BY cursor DESC, idx`,
    ).all(collectionPk, limit) as EpisodeTextRow[];
  }
}
