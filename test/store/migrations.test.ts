import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/connection.js';
import { openStore } from '../../src/store/index.js';
import { migrations } from '../../src/store/migrations/index.js';

const tmp = mkdtempSync(join(process.cwd(), 'test', '.tmp', 'migrations-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('migration runner', () => {
  it('numbers migrations by their file prefix, gaps allowed, and records each one applied', () => {
    const db = openDatabase(join(tmp, 'fresh.db'));
    const applied = (db.prepare('SELECT id FROM schema_migrations ORDER BY id').all() as { id: number }[]).map((r) => r.id);
    expect(applied).toEqual(migrations.map((m) => m.id).sort((a, b) => a - b));
    expect(db.pragma('user_version', { simple: true })).toBe(Math.max(...applied));
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name IN ('people', 'face_tracks') ORDER BY name").all()).toEqual([{ name: 'face_tracks' }, { name: 'people' }]);
    db.close();
  });

  it('upgrades a database from before the record (user_version 2) without re-running 1 and 2', () => {
    const file = join(tmp, 'legacy.db');
    const raw = new Database(file);
    raw.pragma('foreign_keys = ON');
    for (const m of migrations.filter((x) => x.id <= 2)) m.up(raw);
    raw.pragma('user_version = 2');
    raw.close();
    const db = openDatabase(file);
    expect((db.prepare('SELECT id FROM schema_migrations ORDER BY id').all() as { id: number }[]).map((r) => r.id)).toEqual(migrations.map((m) => m.id).sort((a, b) => a - b));
    expect(db.prepare("SELECT count(*) AS n FROM pragma_table_info('collections') WHERE name = 'faces'").get()).toEqual({ n: 1 });
    db.close();
  });

  it('binds the tasks of a database from before 11 to their live collections, and never hands a key out twice', () => {
    const file = join(tmp, 'before-11.db');
    const raw = new Database(file);
    raw.pragma('foreign_keys = ON');
    for (const m of migrations.filter((x) => x.id <= 10)) m.up(raw);
    raw.pragma('user_version = 10');
    const at = '2026-01-01T00:00:00.000Z';
    const collection = raw.prepare("INSERT INTO collections (collection_id, owner, name, created_at, updated_at) VALUES (?, 'k', ?, ?, ?)");
    collection.run('live', 'Live', at, at);
    collection.run('gone', 'Gone', at, at);
    raw.exec("UPDATE collections SET deleting = 1, collection_id = '~deleting-2' WHERE pk = 2");
    raw.prepare("INSERT INTO folders (folder_id, collection_pk, owner, path, recursive, exclude, watch, created_at) VALUES ('f1', 1, 'k', '/m', 1, '[]', 0, ?)").run(at);
    const task = raw.prepare("INSERT INTO tasks (id, owner, endpoint, status, data, created_at, updated_at) VALUES (?, 'k', ?, 'queued', ?, ?, ?)");
    task.run('t-index', '/index', JSON.stringify({ collection: 'live' }), at, at);
    task.run('t-gone', '/index', JSON.stringify({ collection: 'gone' }), at, at);
    task.run('t-scan', '/folders/scan', JSON.stringify({ folder_id: 'f1' }), at, at);
    task.run('t-analyze', '/analyze', JSON.stringify({ video: {} }), at, at);
    raw.close();
    const db = openDatabase(file);
    expect(db.prepare('SELECT id, collection_pk, kind FROM tasks ORDER BY id').all()).toEqual([
      { id: 't-analyze', collection_pk: null, kind: 'analyze' }, { id: 't-gone', collection_pk: null, kind: 'index' },
      { id: 't-index', collection_pk: 1, kind: 'index' }, { id: 't-scan', collection_pk: 1, kind: 'folder_scan' },
    ]);
    // Migration 013: a scan task also names its collection now (its endpoint path shows it).
    expect(JSON.parse(db.prepare("SELECT data FROM tasks WHERE id = 't-scan'").pluck().get() as string)).toEqual({ folder_id: 'f1', collection: 'live' });
    // The highest key ever given is remembered: deleting collection 2 does not free the key 2.
    db.exec('DELETE FROM collections WHERE pk = 2');
    db.close();
    const store = openStore(file);
    const next = store.collections.insert({ collection_id: 'new', owner: 'k2', name: 'New', description: null, is_public: 0, created_at: at, updated_at: at });
    expect(next.pk).toBe(3);
    store.close();
  });

  it('refuses a database written by a newer vidx', () => {
    const file = join(tmp, 'newer.db');
    const raw = new Database(file);
    raw.pragma(`user_version = ${Math.max(...migrations.map((m) => m.id)) + 1}`);
    raw.close();
    expect(() => openDatabase(file)).toThrow(/newer than this vidx/);
  });
});
