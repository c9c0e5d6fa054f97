import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import type { Store } from '../../src/store/index.js';
import { fromBlob, signBits } from '../../src/tools/vectors.js';
import { migrations } from '../../src/store/migrations/index.js';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestApp } from '../support/app.js';
import type { TestServer } from '../support/server.js';
import { indexFixtures } from './fixtures.js';

/**
 * Migration 005 moves the sign bits into sharded vec0 tables, rebuilt from the stored floats.
 * Migration 004 replaces the database-wide FTS tables of schema 2 by a pair per collection; their text is
 * rebuilt from the stored rows at start. The test indexes fixtures, turns the file back into a database
 * without 004–006 (the old tables, empty as contentless tables read; the per-collection tables gone) but
 * with the migrations numbered around them (003 folders, 010 faces) applied, as a database of the main line
 * before this branch has them, reopens it and expects the same answers.
 */
const collectionPk = (store: Store, id: string) => store.collections.findById(id)!.pk;

describe('migrations 004, 005 and 035: text search per collection', () => {
  let s: TestServer;
  afterAll(() => s?.close());

  const searchAll = async (queries: [string, string][]) =>
    Promise.all(
      queries.map(async ([collection, query]) => {
        const r = await s.call('POST', '/search', { form: { collection, query } });
        expect(r.status).toBe(200);
        return r.body.results.map((x: { media_id: string; episode_id: number }) => `${x.media_id}#${x.episode_id}`);
      }),
    );

  const queries: [string, string][] = [['one', 'penalty'], ['two', 'Kuchen'], ['one', 'sunset'], ['two', 'kuchen apfel'], ['one', 'Muenchen']];

  /** Two collections of fixtures (vectors in the first when asked), their answers to `queries`, then the server stopped. */
  const indexedAndStopped = async (vectors: boolean) => {
    s = await startTestApp({ queryEmbedder: null });
    for (const id of ['one', 'two']) expect((await s.call('POST', '/collections', { json: { collection_id: id, name: id } })).status).toBe(201);
    indexFixtures(s.vidx, s.dataDir, 'one', { vectors });
    indexFixtures(s.vidx, s.dataDir, 'two', { vectors: false });
    const before = await searchAll(queries);
    expect(before.flat().length).toBeGreaterThan(3);
    const dataDir = s.dataDir;
    await s.close({ keepData: true });
    return { before, dataDir };
  };

  it('rebuilds every collection’s text from the stored rows and answers as before', async () => {
    const { before, dataDir } = await indexedAndStopped(true);

    const db = new Database(`${dataDir}/vidx.db`);
    const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name GLOB 'fts_*_[0-9]*' AND sql LIKE 'CREATE VIRTUAL%'").pluck().all() as string[];
    expect(tables.length).toBe(6);
    for (const t of tables) db.exec(`DROP TABLE ${t}`);
    db.exec('DELETE FROM text_own_shards');
    db.exec(`DROP TABLE text_indexes;
      ALTER TABLE collections DROP COLUMN deleting;
      CREATE VIRTUAL TABLE episode_fts USING fts5(title, transcript, screen_text, tags, summary, metadata, content = '', contentless_delete = 1, tokenize = 'porter unicode61 remove_diacritics 2');
      CREATE VIRTUAL TABLE episode_trigram USING fts5(title, transcript, screen_text, tags, summary, metadata, content = '', contentless_delete = 1, tokenize = 'trigram remove_diacritics 1');
      DELETE FROM schema_migrations WHERE id IN (4, 5, 6);`);
    // The higher-numbered migrations stay applied, so the runner must fill the gap below them.
    const later = migrations.map((m) => m.id).filter((id) => id > 6);
    expect(db.prepare('SELECT id FROM schema_migrations ORDER BY id').pluck().all()).toEqual([1, 2, 3, ...later]);
    expect(db.pragma('user_version', { simple: true })).toBe(Math.max(...later));
    // Schema 2 kept the sign bits in vec_<kind>_<dims> without a shard key.
    sqliteVec.load(db);
    const spaces = db.prepare('SELECT id, kind, dims, table_name FROM vector_spaces').all() as { id: number; kind: string; dims: number; table_name: string }[];
    expect(spaces.length).toBe(2);
    for (const sp of spaces) {
      const old = `vec_${sp.kind}_${sp.dims}`;
      db.exec(`CREATE VIRTUAL TABLE ${old} USING vec0(collection_pk INTEGER PARTITION KEY, space_id INTEGER PARTITION KEY, embedding BIT[${sp.dims}]);
        INSERT INTO ${old} (rowid, collection_pk, space_id, embedding) SELECT pk, collection_pk, space_id, vec_quantize_binary(embedding) FROM vectors WHERE space_id = ${sp.id};
        DROP TABLE ${sp.table_name};`);
      db.prepare('UPDATE vector_spaces SET table_name = ? WHERE id = ?').run(old, sp.id);
    }
    db.close();

    s = await startTestApp({ queryEmbedder: null, dataDir });
    const after = await searchAll(queries);
    expect(after).toEqual(before);
    const store = s.vidx.store;
    expect(store.db.pragma('user_version', { simple: true })).toBe(Math.max(...migrations.map((m) => m.id)));
    expect(store.db.prepare('SELECT id FROM schema_migrations ORDER BY id').pluck().all()).toEqual(migrations.map((m) => m.id).sort((a, b) => a - b));
    expect(store.text.pendingRebuilds()).toEqual([]);
    expect(store.db.prepare("SELECT count(*) FROM sqlite_schema WHERE name IN ('episode_fts', 'episode_trigram')").pluck().get()).toBe(0);
    // The sign bits are rebuilt from the stored floats into the sharded tables, the same bits the indexer writes.
    for (const sp of store.search.spaces()) {
      expect(sp.table_name).toBe(`vecs_${sp.kind}_${sp.dims}`);
      const rows = store.db.prepare(`SELECT t.rowid AS pk, t.shard, v.embedding FROM ${sp.table_name} t JOIN vectors v ON v.pk = t.rowid`).all() as { pk: number; shard: number; embedding: Buffer }[];
      expect(rows.length).toBe(store.db.prepare('SELECT count(*) FROM vectors WHERE space_id = ?').pluck().get(sp.id));
      for (const r of rows) {
        expect(r.shard).toBe(r.pk % 8);
        const one = fromBlob(r.embedding);
        expect(store.search.nearestBits(sp, collectionPk(store, 'one'), signBits(one), 1)[0].distance).toBe(0);
      }
    }
    // New items still go into the rebuilt tables, and an item delete still reaches them.
    expect((await s.call('DELETE', '/collections/one/items/cup-final')).status).toBe(200);
    expect((await searchAll([['one', 'penalty']]))[0]).toEqual([]);
  });

  it('migration 035 adds each collection its own-words table, filled from the stored rows at start', async () => {
    const { before, dataDir } = await indexedAndStopped(false);

    // The database as schema 34 left it: words and parts tables, no own-words tables.
    const db = new Database(`${dataDir}/vidx.db`);
    const own = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name GLOB 'fts_own_[0-9]*' AND sql LIKE 'CREATE VIRTUAL%'").pluck().all() as string[];
    expect(own.length).toBe(2);
    for (const t of own) db.exec(`DROP TABLE ${t}`);
    db.exec('DROP TABLE text_own_shards; DELETE FROM schema_migrations WHERE id = 35; PRAGMA user_version = 34;');
    db.close();

    const said: string[] = [];
    s = await startTestApp({ queryEmbedder: null, dataDir, logger: (msg) => said.push(msg) });
    expect(await searchAll(queries)).toEqual(before);
    const store = s.vidx.store;
    expect(store.text.pendingRebuilds()).toEqual([]);
    const counts = ['one', 'two'].map((id) => {
      const pk = collectionPk(store, id);
      const episodes = store.db.prepare('SELECT count(*) FROM episodes WHERE collection_pk = ?').pluck().get(pk) as number;
      expect(store.db.prepare(`SELECT count(*) FROM fts_own_${pk}_0`).pluck().get()).toBe(episodes);
      return { pk, episodes };
    });
    // The start says what it waits for, before the server answers: all episodes first, then each collection done.
    const total = counts[0].episodes + counts[1].episodes;
    const rebuild = said.filter((m) => m.startsWith('rebuil'));
    expect(rebuild[0]).toBe(`rebuilding the text index: ${total} episodes in 2 collection(s) (after an upgrade, or a rebuild cut short); the server answers once it is done`);
    expect(rebuild.slice(1).map((m) => m.replace(/ in \d+ ms$/, ''))).toEqual(counts.map((c) => `rebuilt the text index of collection ${c.pk}: ${c.episodes} episodes`));
  });

  it('says how far a long rebuild is', () => {
    const store = s.vidx.store;
    const one = collectionPk(store, 'one');
    const episodes = store.text.storedTextCount(one);
    expect(episodes).toBeGreaterThan(2);
    store.db.prepare('UPDATE text_indexes SET ready = 0 WHERE collection_pk = ?').run(one);
    const said: string[] = [];
    // Pages of two episodes and a line after each: what ten seconds of a million-episode rebuild look like.
    expect(s.vidx.searchIndex.rebuildText((m) => said.push(m), { progressEveryMs: 0, pageSize: 2 })).toBe(episodes);
    const progress = said.filter((m) => m.endsWith(' %)'));
    expect(progress[0]).toBe(`rebuilding the text index of collection ${one}: 2 of ${episodes} episodes (${Math.floor(200 / episodes)} %)`);
    // None claims the last page: the line after it says the collection is done.
    expect(progress).toHaveLength(Math.ceil(episodes / 2) - 1);
    expect(said.at(-1)).toMatch(new RegExp(`^rebuilt the text index of collection ${one}: ${episodes} episodes in \\d+ ms$`));
    expect(store.text.pendingRebuilds()).toEqual([]);
  });
});
