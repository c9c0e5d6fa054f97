import type { Db } from '../db.js';

/** Keys, collections, items, tasks, webhooks and their deliveries. */
export function m001Foundation(db: Db): void {
  db.exec(`
    CREATE TABLE api_keys (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      role TEXT NOT NULL CHECK (role IN ('admin', 'user')),
      hash TEXT NOT NULL UNIQUE,
      created_at TEXT NOT NULL,
      last_used_at TEXT
    );

    CREATE TABLE collections (
      pk INTEGER PRIMARY KEY,
      collection_id TEXT NOT NULL UNIQUE,
      owner TEXT NOT NULL,
      name TEXT NOT NULL,
      description TEXT,
      is_public INTEGER NOT NULL DEFAULT 0,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    );
    CREATE INDEX collections_owner ON collections(owner);

    CREATE TABLE items (
      pk INTEGER PRIMARY KEY,
      cursor TEXT NOT NULL UNIQUE,
      collection_pk INTEGER NOT NULL REFERENCES collections(pk) ON DELETE CASCADE,
      media_id TEXT NOT NULL,
      type TEXT NOT NULL CHECK (type IN ('video', 'audio', 'image')),
      title TEXT,
      src TEXT,
      thumbnail TEXT,
      duration REAL,
      additional_metadata TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      UNIQUE (collection_pk, media_id)
    );
    CREATE INDEX items_page ON items(collection_pk, cursor);

    CREATE TABLE tasks (
      id TEXT PRIMARY KEY,
      owner TEXT NOT NULL,
      endpoint TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'failed')),
      data TEXT NOT NULL,
      progress REAL NOT NULL DEFAULT 0,
      stage TEXT,
      result TEXT,
      error TEXT,
      attempts INTEGER NOT NULL DEFAULT 0,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      started_at TEXT,
      finished_at TEXT
    );
    CREATE INDEX tasks_owner_status ON tasks(owner, status, created_at);
    CREATE INDEX tasks_status ON tasks(status, created_at);

    CREATE TABLE webhooks (
      id TEXT PRIMARY KEY,
      owner TEXT NOT NULL,
      url TEXT NOT NULL,
      events TEXT NOT NULL,
      secret TEXT NOT NULL,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    );
    CREATE INDEX webhooks_owner ON webhooks(owner);

    CREATE TABLE webhook_deliveries (
      id TEXT PRIMARY KEY,
      webhook_id TEXT NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
      event TEXT NOT NULL,
      body TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
      attempts INTEGER NOT NULL DEFAULT 0,
      next_attempt_at INTEGER NOT NULL,
      last_error TEXT,
      response_status INTEGER,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    );
    CREATE INDEX webhook_deliveries_due ON webhook_deliveries(status, next_attempt_at);
  `);
}
