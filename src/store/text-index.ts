import type { Db } from './connection.js';
import { newestRankedSql } from './newest-ranked.js';
import { prepared } from './statements.js';
import { ITEM_FILTER_SQL, filterArgs, type ItemFilter } from './item-filter.js';
import { OWN_COLUMNS, OWN_SHARD_ROWS, OwnWordShards, type FtsHit } from './own-shards.js';

export type { FtsHit } from './own-shards.js';

/** The text of one episode as the FTS tables index it, in bm25() column order. */
export interface EpisodeText {
  title: string;
  transcript: string;
  screen_text: string;
  tags: string;
  summary: string;
  metadata: string;
}

/** A column of the FTS tables. */
export type TextColumn = keyof EpisodeText;

/** The FTS tables' columns in table order, which is bm25()'s order of weights (migration 002). */
const FTS_COLUMNS = ['title', 'transcript', 'screen_text', 'tags', 'summary', 'metadata'] as const satisfies readonly TextColumn[];
const FTS_COLUMN_LIST = FTS_COLUMNS.join(', ');

/**
 * FTS5 column filter of what a moment itself says and shows, searched first. The title, metadata and
 * summary describe the whole item: a match there alone makes every moment of the item a hit.
 */
const OWN_COLUMN_FILTER = `{${OWN_COLUMNS.join(' ')}}`;

/**
 * How a word query ranks, given with each query: the store keeps no ranking knobs of its own, so the one
 * list of them (services/search/ranking-knobs.ts) is the only copy, and both the words table and the
 * own-words shards read their bm25() weights from it.
 */
export interface WordRanking {
  /** bm25() weight of each column; a table of some of the columns uses theirs. */
  bm25: Readonly<Record<TextColumn, number>>;
  /**
   * How many matches (the newest) bm25 ranks per pass; the older ones are not ranked at all. bm25 costs about
   * 2 µs per matching episode (it reads each match's column sizes), and reading the newest matches' rowids
   * first is a walk over the doclist only (newest-ranked.ts).
   */
  newest: number;
}

/**
 * bm25()'s weight arguments for a table of these columns, in their order.
 * @example
 * bm25Weights({ bm25: { ...ranking.bm25, transcript: 1, tags: 2 }, newest: 1000 }, ['transcript', 'tags']); // '1, 2'
 */
export function bm25Weights(ranking: WordRanking, columns: readonly TextColumn[]): string {
  return columns.map((c) => ranking.bm25[c]).join(', ');
}

/** Where and how one word query looks. */
export interface WordQuery {
  /** The most hits to return. */
  limit: number;
  /** Only this item's episodes; null for the whole collection. */
  itemPk: number | null;
  filter?: ItemFilter | null;
  /** `own`: what a moment says and shows (the own-words shards); `all` (default): also the item's title, summary and metadata. */
  columns?: 'own' | 'all';
  ranking: WordRanking;
}

/**
 * Two FTS5 tables of a collection: words (stemmed in JS, see services/search/stems.ts) and parts (trigrams
 * over distinct words). The third, the own words (what a moment says and shows, without the item's title,
 * summary and metadata), is kept in shards (own-shards.ts): most searches rank it first. Asking the words
 * table for those columns with a column filter made FTS5 read every match's positions to check their
 * column, about a third more per pass (docs/performance.md, migration 035).
 */
export interface TextTables {
  words: string;
  parts: string;
}

/** An item filter as an ` AND …` over an FTS table's rowids (episode pks) and its parameters; nothing without one. */
function filterClause(collectionPk: number, filter: ItemFilter | null): { only: string; args: Record<string, unknown> } {
  if (!filter) return { only: '', args: {} };
  return { only: ` AND rowid IN (SELECT e.pk FROM episodes e WHERE ${ITEM_FILTER_SQL})`, args: { collection: collectionPk, ...filterArgs(filter) } };
}

/**
 * The episodes of items being staged in the collection, as an ` AND rowid NOT IN …` (their text rows are
 * written slice by slice before the item is shown: a search leaves them out, so they neither show nor take
 * the places of the newest matches it ranks); nothing while none is.
 */
const STAGED_EPISODES = ' AND rowid NOT IN (SELECT e.pk FROM staged_items s JOIN episodes e ON e.item_pk = s.item_pk WHERE s.collection_pk = @staged_collection)';

const textTables = (collectionPk: number): TextTables => ({ words: `fts_words_${collectionPk}`, parts: `fts_parts_${collectionPk}` });

/** A stored episode with what its searchable text is rebuilt from. */
export interface StoredEpisodeText {
  pk: number;
  title: string | null;
  /** JSON array of the audio segments' texts, in order. */
  audio: string;
  screen_text: string;
  /** JSON array of strings. */
  tags: string;
  summary: string;
  additional_metadata: string | null;
  /** The names of the place the item was recorded at (items.place_words). */
  place_words: string | null;
  /** The language the item was analysed in (its words are stemmed in it); null when unknown. */
  language: string | null;
  /** JSON array of `[language, text]` pairs: the episode's lines of the item's other subtitle tracks, by language and order. */
  others: string;
}

/** Episodes with what their searchable text is rebuilt from (callers add the WHERE clause). */
const STORED_TEXT = `SELECT e.pk, i.title, e.screen_text, e.tags, e.summary, i.additional_metadata, i.place_words, a.language,
  coalesce((SELECT json_group_array(s.text ORDER BY s.seq) FROM segments s WHERE s.episode_pk = e.pk AND s.kind = 'audio'), '[]') AS audio,
  coalesce((SELECT json_group_array(json_array(l.language, l.text) ORDER BY l.language, l.seq) FROM subtitle_lines l WHERE l.episode_pk = e.pk), '[]') AS others
  FROM episodes e JOIN items i ON i.pk = e.item_pk LEFT JOIN item_analysis a ON a.item_pk = e.item_pk`;

/**
 * The text search tables: per collection a words table (FTS5 over words stemmed per language), own-words
 * shards (the same, for what a moment says and shows) and a parts table (FTS5 trigrams over each column's
 * distinct words), registered in `text_indexes` (migration 003), created with the collection's first
 * episode and dropped with the collection. Writes never open their own transaction.
 * @example
 * const text = new TextIndexRepository(db);
 * text.matchWords('"penalti"', collectionPk, { limit: 30, itemPk: null, ranking });
 */
export class TextIndexRepository {
  /** Writes per collection since start: a cached vocabulary is stale when this moved on. */
  private readonly writes = new Map<number, number>();

  private readonly own: OwnWordShards;

  constructor(
    private readonly db: Db,
    /** Episodes per own-words shard (tests use a few). */
    ownShardRows = OWN_SHARD_ROWS,
  ) {
    this.own = new OwnWordShards(db, ownShardRows);
  }

  /**
   * How many writes the collection's text tables have had since start (a cache key, not a count to show).
   * @example
   * text.generation(collectionPk); // 17
   */
  generation(collectionPk: number): number {
    return this.writes.get(collectionPk) ?? 0;
  }

  private wrote(collectionPk: number): void {
    this.writes.set(collectionPk, this.generation(collectionPk) + 1);
    for (const listener of this.writeListeners) listener(collectionPk);
  }

  private readonly writeListeners: ((collectionPk: number) => void)[] = [];

  /**
   * Told of each write to a collection's text tables, inside the writer's transaction (search threads hear of
   * it once it is committed).
   * @example
   * text.onWrite((collectionPk) => threads.changed(collectionPk));
   */
  onWrite(listener: (collectionPk: number) => void): void {
    this.writeListeners.push(listener);
  }

  /**
   * Counts a write another connection made to a collection's text (a search thread's store hears of the
   * request thread's writes): cached vocabularies and place words of the collection are read again.
   * @example
   * text.noteWrite(collectionPk);
   */
  noteWrite(collectionPk: number): void {
    this.wrote(collectionPk);
  }

  /** The fts5vocab table over a collection's words table (per connection, in temp), created when first asked. */
  private vocabTable(collectionPk: number): string | null {
    const t = this.readyTables(collectionPk);
    if (!t) return null;
    const name = `${t.words}_vocab`;
    this.db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${name} USING fts5vocab(main, ${t.words}, row)`);
    return `temp.${name}`;
  }

  /**
   * Whether any of these stems is a word of the collection (in any column).
   * @example
   * text.hasAnyTerm(collectionPk, ['regnet', 'regn']); // true
   */
  hasAnyTerm(collectionPk: number, stems: string[]): boolean {
    const v = this.vocabTable(collectionPk);
    if (!v) return false;
    const stmt = prepared(this.db, `SELECT 1 FROM ${v} WHERE term = ?`);
    return stems.some((s) => stmt.get(s) !== undefined);
  }

  /**
   * The collection's words (stems) after `after` in term order, at most `limit`, each with the number of
   * episodes holding it. fts5vocab walks each term's doclist to count: callers read a large vocabulary in
   * slices and cache it (see {@link generation}).
   * @example
   * text.vocabularyAfter(collectionPk, '', 20_000); // [{ term: 'appl', docs: 3 }, …]
   */
  vocabularyAfter(collectionPk: number, after: string, limit: number): { term: string; docs: number }[] {
    const v = this.vocabTable(collectionPk);
    if (!v) return [];
    return prepared(this.db, `SELECT term, doc AS docs FROM ${v} WHERE term > ? ORDER BY term LIMIT ?`).all(after, limit) as { term: string; docs: number }[];
  }

  /**
   * Indexes an episode in its collection's FTS tables (created on first use): `words` is the parts
   * table's per-column distinct-word text.
   */
  insertText(collectionPk: number, episodePk: number, text: EpisodeText, words: EpisodeText): void {
    this.insertRows(this.ensureTables(collectionPk), collectionPk, episodePk, text, words);
  }

  private insertRows(t: TextTables, collectionPk: number, episodePk: number, text: EpisodeText, words: EpisodeText): void {
    this.wrote(collectionPk);
    prepared(this.db, `INSERT INTO ${t.words} (rowid, ${FTS_COLUMN_LIST}) VALUES (@rowid, @title, @transcript, @screen_text, @tags, @summary, @metadata)`).run({ rowid: episodePk, ...text });
    this.own.insert(collectionPk, episodePk, text);
    prepared(this.db, `INSERT INTO ${t.parts} (rowid, ${FTS_COLUMN_LIST}) VALUES (@rowid, @title, @transcript, @screen_text, @tags, @summary, @metadata)`).run({ rowid: episodePk, ...words });
  }

  /** The collection's FTS tables when they are filled (ready), else null: nothing to match yet. */
  readyTables(collectionPk: number): TextTables | null {
    const ready = prepared(this.db, 'SELECT ready FROM text_indexes WHERE collection_pk = ?').pluck().get(collectionPk) as number | undefined;
    return ready === 1 ? textTables(collectionPk) : null;
  }

  /** The collection's FTS tables, created and registered (ready) when missing. */
  private ensureTables(collectionPk: number): TextTables {
    const t = textTables(collectionPk);
    const ready = prepared(this.db, 'SELECT ready FROM text_indexes WHERE collection_pk = ?').pluck().get(collectionPk) as number | undefined;
    if (ready === 1) return t;
    if (ready === 0) throw new Error(`the text index of collection ${collectionPk} is waiting for its rebuild`);
    this.createTables(t);
    prepared(this.db, 'INSERT INTO text_indexes (collection_pk, ready) VALUES (?, 1)').run(collectionPk);
    return t;
  }

  private createTables(t: TextTables): void {
    // Same columns (bm25 weight order) as before the split per collection (migration 002). The words come
    // stemmed per language (migration 030), so the tokenizer only splits and folds diacritics.
    this.db.exec(`
      CREATE VIRTUAL TABLE ${t.words} USING fts5(${FTS_COLUMN_LIST}, content = '', contentless_delete = 1,
        tokenize = 'unicode61 remove_diacritics 2');
      CREATE VIRTUAL TABLE ${t.parts} USING fts5(${FTS_COLUMN_LIST}, content = '', contentless_delete = 1,
        tokenize = 'trigram remove_diacritics 1');
    `);
  }

  /** Collections whose FTS tables wait for a rebuild from the stored rows (after migration 003). */
  pendingRebuilds(): number[] {
    return prepared(this.db, 'SELECT collection_pk FROM text_indexes WHERE ready = 0 ORDER BY collection_pk').pluck().all() as number[];
  }

  /** Drops and recreates the collection's (empty) FTS tables for a rebuild; `finishRebuild` marks them ready. */
  startRebuild(collectionPk: number): void {
    const t = textTables(collectionPk);
    this.db.exec(`DROP TABLE IF EXISTS temp.${t.words}_vocab; DROP TABLE IF EXISTS ${t.words}; DROP TABLE IF EXISTS ${t.parts};`);
    this.own.dropAll(collectionPk);
    this.createTables(t);
    prepared(this.db, 'INSERT INTO text_indexes (collection_pk, ready) VALUES (?, 0) ON CONFLICT (collection_pk) DO UPDATE SET ready = 0').run(collectionPk);
  }

  finishRebuild(collectionPk: number): void {
    const t = textTables(collectionPk);
    // One b-tree per table instead of the many segments of row-by-row inserts: faster queries from the start.
    for (const table of [t.words, t.parts]) this.db.exec(`INSERT INTO ${table}(${table}) VALUES ('optimize')`);
    this.own.optimize(collectionPk);
    prepared(this.db, 'UPDATE text_indexes SET ready = 1 WHERE collection_pk = ?').run(collectionPk);
  }

  /** How many stored episodes a collection's rebuild reads (what its progress is counted against). */
  storedTextCount(collectionPk: number): number {
    return prepared(this.db, 'SELECT count(*) FROM episodes WHERE collection_pk = ?').pluck().get(collectionPk) as number;
  }

  /** A page of a collection's stored episodes (pk order, after `afterPk`) with what their text is built from. */
  storedTexts(collectionPk: number, afterPk: number, limit: number): StoredEpisodeText[] {
    return prepared(this.db, `${STORED_TEXT} WHERE e.collection_pk = ? AND e.pk > ? ORDER BY e.pk LIMIT ?`).all(collectionPk, afterPk, limit) as StoredEpisodeText[];
  }

  /** The stored episodes of one item with what their text is built from (its title or metadata changed). */
  storedTextsOfItem(itemPk: number): StoredEpisodeText[] {
    return prepared(this.db, `${STORED_TEXT} WHERE e.item_pk = ? ORDER BY e.pk`).all(itemPk) as StoredEpisodeText[];
  }

  /** Inserts a rebuilt episode's text into the collection's tables (between startRebuild and finishRebuild). */
  insertRebuilt(collectionPk: number, episodePk: number, text: EpisodeText, words: EpisodeText): void {
    this.insertRows(textTables(collectionPk), collectionPk, episodePk, text, words);
  }

  /**
   * Best episodes for a word-level FTS5 query in one collection (optionally one item), by bm25 with the
   * query's ranking, best first. `own` matches only what a moment says and shows (transcript, on-screen
   * text, tags: the own-words shards); `all` also the item's title, summary and metadata (the words table).
   * Each call ranks at most the newest `ranking.newest` matches, so a word in most episodes costs about what
   * a word in that many does. `match` must already be a safe FTS5 expression (see services/search/query.ts).
   * @example
   * text.matchWords('"penalti"', collectionPk, { limit: 30, itemPk: null, columns: 'own', ranking: WORD_RANKING }); // [{ pk, bm25 }, …]
   */
  matchWords(match: string, collectionPk: number, q: WordQuery): FtsHit[] {
    const t = this.readyTables(collectionPk);
    const range = t && this.itemRange(q.itemPk);
    if (!t || !range) return [];
    // The filter applies in the bound too, so the ranked matches are the newest that pass it.
    const { only, args } = this.clauses(collectionPk, q.filter ?? null);
    const { ranking, limit } = q;
    if (q.columns === 'own') return this.own.match(collectionPk, { match, limit, ranked: ranking.newest, bm25: bm25Weights(ranking, OWN_COLUMNS), ...range, only, args });
    const sql = newestRankedSql(t.words, bm25Weights(ranking, FTS_COLUMNS), `${t.words} MATCH @match AND rowid BETWEEN @lo AND @hi${only}`);
    return prepared(this.db, sql).all({ match, limit, wanted: ranking.newest, ...range, ...args }) as FtsHit[];
  }

  /**
   * Episodes whose words contain the trigram query's strings: first those matching in what a moment says
   * and shows (transcript, on-screen text, tags), then in any column, each newest first. No bm25 here: its
   * document frequency of a trigram phrase means verifying every match in the whole table (100+ ms for a
   * common word part), while reading newest first stops after `limit` rows.
   */
  matchParts(match: string, collectionPk: number, limit: number, itemPk: number | null, filter: ItemFilter | null = null): number[] {
    const t = this.readyTables(collectionPk);
    const range = t && this.itemRange(itemPk);
    if (!t || !range) return [];
    const clause = this.clauses(collectionPk, filter);
    const stmt = prepared(
      this.db,
      `SELECT rowid AS pk FROM ${t.parts} WHERE ${t.parts} MATCH @match AND rowid BETWEEN @lo AND @hi${clause.only} ORDER BY rowid DESC LIMIT @limit`,
    ).pluck();
    const args = { ...range, ...clause.args };
    const first = stmt.all({ match: `${OWN_COLUMN_FILTER} : (${match})`, limit, ...args }) as number[];
    if (first.length >= limit) return first;
    const seen = new Set(first);
    for (const pk of stmt.all({ match, limit: limit + first.length, ...args }) as number[]) {
      if (first.length >= limit) break;
      if (!seen.has(pk)) first.push(pk);
    }
    return first;
  }

  /** The item filter's clause, and the staged episodes' while the collection has any. */
  private clauses(collectionPk: number, filter: ItemFilter | null): { only: string; args: Record<string, unknown> } {
    const c = filterClause(collectionPk, filter);
    if (prepared(this.db, 'SELECT 1 FROM staged_items WHERE collection_pk = ? LIMIT 1').get(collectionPk) === undefined) return c;
    return { only: c.only + STAGED_EPISODES, args: { ...c.args, staged_collection: collectionPk } };
  }

  /** The pk range of an item's episodes (written in one transaction, so contiguous: FTS5 seeks to it); all when no item. */
  private itemRange(itemPk: number | null): { lo: number; hi: number } | null {
    if (itemPk === null) return { lo: 0, hi: Number.MAX_SAFE_INTEGER };
    const r = prepared(this.db, 'SELECT min(pk) AS lo, max(pk) AS hi FROM episodes WHERE item_pk = ?').get(itemPk) as { lo: number | null; hi: number | null };
    return r.lo === null || r.hi === null ? null : { lo: r.lo, hi: r.hi };
  }

  /**
   * Removes part of a deleted collection's FTS tables; true while more remains. First the tables leave
   * the registry (no query reads them from then on), then the rows of their two big shadow tables go
   * `rows` at a time, then the emptied tables are dropped. A DROP of the full tables would walk every page
   * of a 100k-episode index in one statement (seconds on a busy machine, every request waiting).
   */
  dropSome(collectionPk: number, rows: number): boolean {
    if (prepared(this.db, 'DELETE FROM text_indexes WHERE collection_pk = ?').run(collectionPk).changes > 0) return true;
    const t = textTables(collectionPk);
    this.wrote(collectionPk);
    this.db.exec(`DROP TABLE IF EXISTS temp.${t.words}_vocab`);
    for (const table of [t.words, t.parts, ...this.own.tables(collectionPk)]) {
      if (!prepared(this.db, "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?").get(table)) continue;
      // The FTS5 shadow tables (segments and document sizes) are plain rowid tables; the index is dropped
      // next, so what it would make of the half-emptied tables never matters. better-sqlite3 opens in
      // SQLite's defensive mode, which makes shadow tables read-only; unsafe mode lifts that for this one
      // synchronous statement (nothing else can run on the connection meanwhile).
      for (const shadow of [`${table}_data`, `${table}_docsize`]) {
        this.db.unsafeMode(true);
        let n: number;
        try {
          n = prepared(this.db, `DELETE FROM ${shadow} WHERE rowid IN (SELECT rowid FROM ${shadow} LIMIT ?)`).run(rows).changes;
        } finally {
          this.db.unsafeMode(false);
        }
        if (n > 0) return true;
      }
      this.db.exec(`DROP TABLE ${table}`);
      return true;
    }
    this.own.dropAll(collectionPk);
    return false;
  }

  /** Deletes episodes' rows from the collection's text tables (an item delete or replace). */
  deleteRows(collectionPk: number, episodePks: number[]): void {
    const t = this.readyTables(collectionPk);
    if (!t) return;
    this.wrote(collectionPk);
    const deletes = [t.words, t.parts].map((table) => prepared(this.db, `DELETE FROM ${table} WHERE rowid = ?`));
    for (const pk of episodePks) for (const d of deletes) d.run(pk);
    this.own.delete(collectionPk, episodePks);
  }
}
