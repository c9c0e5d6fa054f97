import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/connection.js';
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

  it('refuses a database written by a newer vidx', () => {
    const file = join(tmp, 'newer.db');
    const raw = new Database(file);
    raw.pragma(`user_version = ${Math.max(...migrations.map((m) => m.id)) + 1}`);
    raw.close();
    expect(() => openDatabase(file)).toThrow(/newer than this vidx/);
  });
});
