import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { allRows, prepared } from '../../src/store/statements.js';

describe('allRows', () => {
  it('gives the rows better-sqlite3 gives, values and types alike, also for a column named twice', () => {
    const db = new Database(':memory:');
    db.exec(`CREATE TABLE t (pk INTEGER PRIMARY KEY, name TEXT, score REAL, data BLOB, note TEXT);
      INSERT INTO t (name, score, data, note) VALUES ('a', 1.5, x'0102', NULL), ('b', -2, x'', 'x'), ('ü', 0, NULL, '');`);
    for (const sql of ['SELECT * FROM t ORDER BY pk', 'SELECT t.*, u.name AS other, u.pk FROM t JOIN t u ON u.pk = 4 - t.pk WHERE t.pk > ? ORDER BY t.pk']) {
      const params = sql.includes('?') ? [1] : [];
      expect(allRows(db, sql, ...params)).toEqual(prepared(db, sql).all(...params));
      // Asked again (the cached raw statement) and with no rows.
      expect(allRows(db, sql, ...params)).toHaveLength(params.length ? 2 : 3);
    }
    expect(allRows(db, 'SELECT * FROM t WHERE pk > 9')).toEqual([]);
    db.close();
  });
});
