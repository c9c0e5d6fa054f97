import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/store/index.js';
import { OWN_COLUMNS, OwnWordShards, type OwnQuery } from '../../src/store/own-shards.js';
import { bm25Weights } from '../../src/store/text-index.js';
import { WORD_RANKING } from '../../src/services/search/ranking-knobs.js';

/** Episode i says one of four lines; every third also shows "apple" on screen. */
const LINES = ['apple cake with cream', 'rain on the window', 'apple trees in rain', 'cake for grandma'];
const textOf = (i: number) => ({ transcript: LINES[i % LINES.length], screen_text: i % 3 === 0 ? 'apple' : '', tags: '' });

describe('own-words shards', () => {
  let dir: string;
  let store: Store;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'vidx-shards-'));
    store = openStore(join(dir, 'vidx.db'));
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const query = (match: string, over: Partial<OwnQuery> = {}): OwnQuery => ({ match, limit: 100, ranked: 1000, bm25: bm25Weights(WORD_RANKING, OWN_COLUMNS), lo: 0, hi: Number.MAX_SAFE_INTEGER, only: '', args: {}, ...over });
  const fill = (own: OwnWordShards, collectionPk: number, pks: number[]) => {
    for (const pk of pks) own.insert(collectionPk, pk, textOf(pk));
  };
  const shardRows = (collectionPk: number) => store.db.prepare('SELECT shard, first_pk, rows FROM text_own_shards WHERE collection_pk = ? ORDER BY shard').all(collectionPk) as { shard: number; first_pk: number; rows: number }[];
  const pks = (hits: { pk: number }[]) => hits.map((h) => h.pk).sort((a, b) => a - b);
  const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

  it('starts a new shard when the newest is full, and finds across shards what one table finds', () => {
    const sharded = new OwnWordShards(store.db, 3);
    const single = new OwnWordShards(store.db);
    fill(sharded, 1, range(1, 11));
    fill(single, 2, range(1, 11));
    expect(shardRows(1)).toEqual([
      { shard: 0, first_pk: 1, rows: 3 },
      { shard: 1, first_pk: 4, rows: 3 },
      { shard: 2, first_pk: 7, rows: 3 },
      { shard: 3, first_pk: 10, rows: 2 },
    ]);
    expect(shardRows(2)).toEqual([{ shard: 0, first_pk: 1, rows: 11 }]);
    const found = ['"apple"', '"cake" AND "apple"', '"rain" OR "grandma"', '"nothing"'].map((match) => {
      const hits = pks(sharded.match(1, query(match)));
      expect(hits).toEqual(pks(single.match(2, query(match))));
      return hits.length;
    });
    expect(found).toEqual([7, 3, 9, 0]);
    // Best first by bm25, at most `limit`.
    const two = sharded.match(1, query('"apple"', { limit: 2 }));
    expect(two).toHaveLength(2);
    expect(two[0].bm25).toBeLessThanOrEqual(two[1].bm25);
  });

  it('ranks only the newest matches and keeps to the pk range, newest shard first', () => {
    const own = new OwnWordShards(store.db, 3);
    fill(own, 1, range(1, 12));
    // "apple" is said in every even-numbered line's episodes and shown in every third: the newest four of them, wherever they lie.
    const all = pks(own.match(1, query('"apple"')));
    expect(all).toEqual([2, 3, 4, 6, 8, 9, 10, 12]);
    expect(pks(own.match(1, query('"apple"', { ranked: 4 })))).toEqual(all.slice(-4));
    expect(pks(own.match(1, query('"apple"', { lo: 4, hi: 8 })))).toEqual(all.filter((pk) => pk >= 4 && pk <= 8));
    expect(pks(own.match(1, query('"apple"', { ranked: 2, lo: 1, hi: 5 })))).toEqual(all.filter((pk) => pk <= 5).slice(-2));
  });

  it('deletes from the shard that holds a row, takes a lower pk into the shard covering it, and drops all', () => {
    const own = new OwnWordShards(store.db, 3);
    fill(own, 1, [10, 11, 12, 20, 21]);
    own.delete(1, [11, 20]);
    expect(pks(own.match(1, query('"cake" OR "rain" OR "apple"')))).toEqual([10, 12, 21]);
    expect(shardRows(1)).toEqual([
      { shard: 0, first_pk: 10, rows: 2 },
      { shard: 1, first_pk: 20, rows: 1 },
    ]);
    // A pk below the newest shard's first (SQLite may hand out a freed one again) goes where it belongs.
    own.insert(1, 13, textOf(13));
    expect(shardRows(1)[0].rows).toBe(3);
    expect(own.tables(1).sort()).toEqual(['fts_own_1_0', 'fts_own_1_1']);
    own.dropAll(1);
    expect(own.tables(1)).toEqual([]);
    expect(shardRows(1)).toEqual([]);
    expect(own.match(1, query('"cake"'))).toEqual([]);
  });
});
