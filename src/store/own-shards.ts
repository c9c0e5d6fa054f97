import type { Db } from './connection.js';
import { newestRankedSql } from './newest-ranked.js';
import { prepared } from './statements.js';

/**
 * The columns of what a moment itself says and shows, in table order. Their bm25() weights come with each
 * query ({@link OwnQuery}), from the caller's one list of the words tables' weights.
 */
export const OWN_COLUMNS = ['transcript', 'screen_text', 'tags'] as const;
const OWN_FTS_COLUMNS = OWN_COLUMNS.join(', ');

/**
 * Episodes per shard of a collection's own-words table. bm25() first counts, over the whole table, the
 * episodes holding each query word (its IDF), whatever rows the query then ranks: a common word in a
 * million episodes made that count ten times what it is in 100,000. A search ranks the newest matches,
 * which in a large collection all lie in its newest shard, so it counts over that shard alone.
 */
export const OWN_SHARD_ROWS = 100_000;

/** What a moment says and shows, as the own-words table indexes it. */
export interface OwnText {
  transcript: string;
  screen_text: string;
  tags: string;
}

/** A word-level hit: bm25 is negative, lower is better (FTS5's convention). */
export interface FtsHit {
  pk: number;
  bm25: number;
}

/** One shard: its number (newer shards have higher ones), the first episode pk it took, its rows. */
interface ShardRow {
  shard: number;
  first_pk: number;
  rows: number;
}

/** How one ranked pass is bounded: the episode pk range, an extra SQL condition and its parameters. */
export interface OwnQuery {
  match: string;
  limit: number;
  /** How many of the newest matches are ranked by bm25. */
  ranked: number;
  /** bm25()'s weight arguments, one per column of {@link OWN_COLUMNS}, in its order. */
  bm25: string;
  lo: number;
  hi: number;
  /** ` AND …` over `rowid`, or ''. */
  only: string;
  args: Record<string, unknown>;
}

const tableName = (collectionPk: number, shard: number) => `fts_own_${collectionPk}_${shard}`;

/**
 * A collection's own-words table (transcript, on-screen text and tags, stemmed as in the words table) in
 * shards of `shardRows` episodes, registered in `text_own_shards` (migration 035). An episode goes to the
 * newest shard, or starts a new one when that is full; a shard holds the pks from its first up to the next
 * shard's first, so a newest-first search walks the shards newest first.
 * @example
 * const own = new OwnWordShards(db);
 * own.insert(collectionPk, episodePk, { transcript: 'appl cake', screen_text: '', tags: '' });
 * own.match(collectionPk, { match: '"appl"', limit: 30, ranked: 1000, bm25: '1, 1, 1', lo: 0, hi: 1e15, only: '', args: {} });
 */
export class OwnWordShards {
  constructor(
    private readonly db: Db,
    private readonly shardRows = OWN_SHARD_ROWS,
  ) {}

  /** The collection's shards, newest first. */
  private shards(collectionPk: number): ShardRow[] {
    return prepared(this.db, 'SELECT shard, first_pk, rows FROM text_own_shards WHERE collection_pk = ? ORDER BY shard DESC').all(collectionPk) as ShardRow[];
  }

  /** The shard that holds (or takes) an episode pk: the newest whose first pk is not above it, else the oldest. */
  private shardOf(shards: ShardRow[], episodePk: number): ShardRow | undefined {
    return shards.find((s) => s.first_pk <= episodePk) ?? shards[shards.length - 1];
  }

  private create(collectionPk: number, shard: number, firstPk: number): ShardRow {
    this.db.exec(
      `CREATE VIRTUAL TABLE ${tableName(collectionPk, shard)} USING fts5(${OWN_FTS_COLUMNS}, content = '', contentless_delete = 1,
        tokenize = 'unicode61 remove_diacritics 2')`,
    );
    prepared(this.db, 'INSERT INTO text_own_shards (collection_pk, shard, first_pk, rows) VALUES (?, ?, ?, 0)').run(collectionPk, shard, firstPk);
    return { shard, first_pk: firstPk, rows: 0 };
  }

  /** Indexes one episode's own text, in the newest shard or a new one when that is full. */
  insert(collectionPk: number, episodePk: number, text: OwnText): void {
    const shards = this.shards(collectionPk);
    const newest = shards[0];
    const target =
      !newest || (newest.rows >= this.shardRows && episodePk >= newest.first_pk) ? this.create(collectionPk, (newest?.shard ?? -1) + 1, episodePk) : this.shardOf(shards, episodePk)!;
    prepared(this.db, `INSERT INTO ${tableName(collectionPk, target.shard)} (rowid, ${OWN_FTS_COLUMNS}) VALUES (?, ?, ?, ?)`).run(episodePk, text.transcript, text.screen_text, text.tags);
    prepared(this.db, 'UPDATE text_own_shards SET rows = rows + 1 WHERE collection_pk = ? AND shard = ?').run(collectionPk, target.shard);
  }

  /** Removes episodes' rows (an item delete or replace). */
  delete(collectionPk: number, episodePks: number[]): void {
    const shards = this.shards(collectionPk);
    for (const pk of episodePks) {
      const s = this.shardOf(shards, pk);
      if (!s) return;
      prepared(this.db, `DELETE FROM ${tableName(collectionPk, s.shard)} WHERE rowid = ?`).run(pk);
      prepared(this.db, 'UPDATE text_own_shards SET rows = max(rows - 1, 0) WHERE collection_pk = ? AND shard = ?').run(collectionPk, s.shard);
    }
  }

  /** The collection's shard tables as they exist in the schema (also those a half-done purge left). */
  tables(collectionPk: number): string[] {
    return prepared(this.db, "SELECT name FROM sqlite_schema WHERE type = 'table' AND name GLOB ? AND name NOT GLOB '*_*_*_*_*'")
      .pluck()
      .all(`fts_own_${collectionPk}_[0-9]*`) as string[];
  }

  /** Drops every shard of the collection and forgets them (a rebuild starts over; a purge has emptied them). */
  dropAll(collectionPk: number): void {
    for (const t of this.tables(collectionPk)) this.db.exec(`DROP TABLE ${t}`);
    prepared(this.db, 'DELETE FROM text_own_shards WHERE collection_pk = ?').run(collectionPk);
  }

  /** Merges each shard's segments into one b-tree (after a rebuild). */
  optimize(collectionPk: number): void {
    for (const t of this.tables(collectionPk)) this.db.exec(`INSERT INTO ${t}(${t}) VALUES ('optimize')`);
  }

  /**
   * The best `limit` episodes by bm25 among the newest `ranked` matches, best first. Shards are asked
   * newest first, each for the matches still wanted, and their hits merged by bm25 (each shard's bm25
   * counts word frequencies over that shard: near enough to compare, as shards are large).
   */
  match(collectionPk: number, q: OwnQuery): FtsHit[] {
    const shards = this.shards(collectionPk);
    const hits: FtsHit[] = [];
    let wanted = q.ranked;
    for (let i = 0; i < shards.length && wanted > 0; i++) {
      // Shard i holds pks below the first pk of the newer shard i - 1 (the oldest also those below its own first).
      const upper = i === 0 ? Number.POSITIVE_INFINITY : shards[i - 1].first_pk;
      const lower = i === shards.length - 1 ? Number.NEGATIVE_INFINITY : shards[i].first_pk;
      if (upper <= q.lo) break;
      if (lower > q.hi) continue;
      const table = tableName(collectionPk, shards[i].shard);
      const where = `${table} MATCH @match AND rowid BETWEEN @lo AND @hi${q.only}`;
      const params = { match: q.match, lo: q.lo, hi: q.hi, ...q.args };
      hits.push(...(prepared(this.db, newestRankedSql(table, q.bm25, where)).all({ ...params, wanted, limit: q.limit }) as FtsHit[]));
      if (i + 1 < shards.length) {
        wanted -= prepared(this.db, `SELECT count(*) FROM (SELECT rowid FROM ${table} WHERE ${where} ORDER BY rowid DESC LIMIT @wanted)`).pluck().get({ ...params, wanted }) as number;
      }
    }
    return shards.length > 1 ? hits.sort((a, b) => a.bm25 - b.bm25).slice(0, q.limit) : hits;
  }
}
