import type { Db } from '../db.js';

/**
 * Share links (issue 23): a moment of one item, playable without a key until it expires (1 or 7 days) or
 * its owner revokes it. `token` is the secret in the link; `share_id` names it for listing and revoking.
 * Bound to the item by collection and media_id, so a re-index (which replaces the item's row) keeps it.
 */
export function m014Shares(db: Db): void {
  db.exec(`
    CREATE TABLE shares (
      share_id TEXT PRIMARY KEY,
      token TEXT NOT NULL UNIQUE,
      collection_pk INTEGER NOT NULL REFERENCES collections(pk) ON DELETE CASCADE,
      media_id TEXT NOT NULL,
      start_time REAL NOT NULL,
      owner TEXT NOT NULL,
      created_at TEXT NOT NULL,
      expires_at TEXT NOT NULL
    );
    CREATE INDEX shares_item ON shares(collection_pk, media_id);
  `);
}
