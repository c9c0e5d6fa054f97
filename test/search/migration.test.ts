import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';
import { indexFixtures } from './fixtures.js';

/**
 * Migration 003 replaces the database-wide FTS tables of schema 2 by a pair per collection; their text is
 * rebuilt from the stored rows at start. The test indexes fixtures, turns the file back into a schema-2
 * database (the old tables, empty as contentless tables read; the per-collection tables gone), reopens it
 * and expects the same answers.
 */
describe('migration 003: text search per collection', () => {
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

  it('rebuilds every collection’s text from the stored rows and answers as before', async () => {
    s = await startTestServer({ queryEmbedder: null });
    for (const id of ['one', 'two']) expect((await s.call('POST', '/collections', { json: { collection_id: id, name: id } })).status).toBe(201);
    indexFixtures(s.vidx, s.dataDir, 'one', { vectors: false });
    indexFixtures(s.vidx, s.dataDir, 'two', { vectors: false });
    const queries: [string, string][] = [['one', 'penalty'], ['two', 'Kuchen'], ['one', 'sunset'], ['two', 'kuchen apfel'], ['one', 'Muenchen']];
    const before = await searchAll(queries);
    expect(before.flat().length).toBeGreaterThan(3);
    const dataDir = s.dataDir;
    await s.close({ keepData: true });

    const db = new Database(`${dataDir}/vidx.db`);
    const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name GLOB 'fts_*_[0-9]*' AND sql LIKE 'CREATE VIRTUAL%'").pluck().all() as string[];
    expect(tables.length).toBe(4);
    for (const t of tables) db.exec(`DROP TABLE ${t}`);
    db.exec(`DROP TABLE text_indexes;
      CREATE VIRTUAL TABLE episode_fts USING fts5(title, transcript, screen_text, tags, summary, metadata, content = '', contentless_delete = 1, tokenize = 'porter unicode61 remove_diacritics 2');
      CREATE VIRTUAL TABLE episode_trigram USING fts5(title, transcript, screen_text, tags, summary, metadata, content = '', contentless_delete = 1, tokenize = 'trigram remove_diacritics 1');
      PRAGMA user_version = 2;`);
    db.close();

    s = await startTestServer({ queryEmbedder: null, dataDir });
    const after = await searchAll(queries);
    expect(after).toEqual(before);
    const store = s.vidx.store;
    expect(store.db.pragma('user_version', { simple: true })).toBe(3);
    expect(store.search.pendingTextRebuilds()).toEqual([]);
    expect(store.db.prepare("SELECT count(*) FROM sqlite_schema WHERE name IN ('episode_fts', 'episode_trigram')").pluck().get()).toBe(0);
    // New items still go into the rebuilt tables, and an item delete still reaches them.
    expect((await s.call('DELETE', '/collections/one/items/cup-final')).status).toBe(200);
    expect((await searchAll([['one', 'penalty']]))[0]).toEqual([]);
  });
});
