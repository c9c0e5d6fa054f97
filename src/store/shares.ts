import type { Db } from './connection.js';
import { prepared } from './statements.js';

/** A shares row as stored. */
export interface ShareRow {
  share_id: string;
  token: string;
  collection_pk: number;
  media_id: string;
  start_time: number;
  owner: string;
  created_at: string;
  expires_at: string;
}

/**
 * The shares table: links to one moment of an item, playable without a key until they expire.
 * @example
 * new ShareRepository(db).byToken(token);
 */
export class ShareRepository {
  constructor(private readonly db: Db) {}

  insert(row: ShareRow): void {
    prepared(
      this.db,
      `INSERT INTO shares (share_id, token, collection_pk, media_id, start_time, owner, created_at, expires_at)
       VALUES (@share_id, @token, @collection_pk, @media_id, @start_time, @owner, @created_at, @expires_at)`,
    ).run(row);
  }

  /** A share by its secret, unless it has expired (`now`: ISO time). */
  byToken(token: string, now: string): ShareRow | undefined {
    return prepared(this.db, 'SELECT * FROM shares WHERE token = ? AND expires_at > ?').get(token, now) as ShareRow | undefined;
  }

  /** A share by its id, unless it has expired. */
  byId(shareId: string, now: string): ShareRow | undefined {
    return prepared(this.db, 'SELECT * FROM shares WHERE share_id = ? AND expires_at > ?').get(shareId, now) as ShareRow | undefined;
  }

  /** The unexpired shares of an item, newest first. */
  ofItem(collectionPk: number, mediaId: string, now: string): ShareRow[] {
    return prepared(this.db, 'SELECT * FROM shares WHERE collection_pk = ? AND media_id = ? AND expires_at > ? ORDER BY created_at DESC')
      .all(collectionPk, mediaId, now) as ShareRow[];
  }

  delete(shareId: string): boolean {
    return prepared(this.db, 'DELETE FROM shares WHERE share_id = ?').run(shareId).changes > 0;
  }

  /** Removes an item's shares (the item is deleted). */
  deleteOfItem(collectionPk: number, mediaId: string): void {
    prepared(this.db, 'DELETE FROM shares WHERE collection_pk = ? AND media_id = ?').run(collectionPk, mediaId);
  }

  /** Drops expired shares (at start and now and then). */
  pruneExpired(now: string): number {
    return prepared(this.db, 'DELETE FROM shares WHERE expires_at <= ?').run(now).changes;
  }
}
