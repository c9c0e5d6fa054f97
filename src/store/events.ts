import type { Db } from './connection.js';
import type { ItemRow } from './items.js';
import { stagedItem } from './staging.js';
import { prepared } from './statements.js';

/**
 * Items with a recording date. A file's own date (`captured_at_source = 'file'`) says when a copy was made,
 * not when it was recorded: such an item counts as undated here, as answers never name it either.
 */
const RECORDED = `captured_at IS NOT NULL AND captured_at_source IN ('metadata', 'filename') AND NOT ${stagedItem('pk')}`;

/** An item as events are grouped from it. */
export interface DatedItem {
  pk: number;
  /** Its id in the collection: what an event knows it by across re-indexing (which gives it a new pk). */
  media_id: string;
  type: ItemRow['type'];
  captured_at: string;
  /** Its city's key (`PT:Lisbon`: country code and city), or null without a place. */
  city: string | null;
  /** JSON of its place (media/places/place.ts), or null. */
  place: string | null;
}

/** An events row. */
export interface EventRow {
  pk: number;
  collection_pk: number;
  event_id: string;
  /** The name a person gave it; null: its title is made from its place and dates. */
  name: string | null;
  start_at: string;
  end_at: string;
  cover_item_pk: number | null;
  videos: number;
  audio: number;
  images: number;
  /** JSON array of its places (media/places/place.ts), most items first. */
  places: string;
  /** JSON array of its items' media ids: how a regrouping knows it again after its items were re-indexed. */
  members: string;
  created_at: string;
}

/** An event to store, with its items. */
export type NewEvent = Omit<EventRow, 'pk'> & { items: number[] };

/** Items of one month (`YYYY-MM`, UTC) by type. */
export interface MonthCount {
  month: string;
  type: ItemRow['type'];
  items: number;
}

/**
 * The events of collections, their items, and the counts of the timeline.
 * @example
 * new EventRepository(db).page(collection.pk, 0, 20);
 */
export class EventRepository {
  constructor(private readonly db: Db) {}

  /** The collection's items with a recording date, oldest first. */
  datedItems(collectionPk: number): DatedItem[] {
    return prepared(this.db, `SELECT pk, media_id, type, captured_at, (place ->> '$.country_code') || ':' || (place ->> '$.city') AS city, place FROM items WHERE collection_pk = ? AND ${RECORDED} ORDER BY captured_at, pk`).all(collectionPk) as DatedItem[];
  }

  /**
   * What the events of a collection were grouped from: how many times an item came, went or changed its date
   * or place (triggers count it, migration 043). One indexed read, whatever the collection's size.
   */
  fingerprint(collectionPk: number): string {
    return String((prepared(this.db, 'SELECT n FROM item_changes WHERE collection_pk = ?').pluck().get(collectionPk) as number | undefined) ?? 0);
  }

  storedFingerprint(collectionPk: number): string | null {
    return (prepared(this.db, 'SELECT fingerprint FROM event_state WHERE collection_pk = ?').pluck().get(collectionPk) as string | undefined) ?? null;
  }

  /** Each event of a collection with its items' media ids (to give a new grouping the ids and names of the old). */
  groups(collectionPk: number): { event_id: string; name: string | null; created_at: string; members: string[] }[] {
    const rows = prepared(this.db, 'SELECT event_id, name, created_at, members FROM events WHERE collection_pk = ?').all(collectionPk) as { event_id: string; name: string | null; created_at: string; members: string }[];
    return rows.map((r) => ({ ...r, members: JSON.parse(r.members) as string[] }));
  }

  /** Replaces a collection's events with `events` and records what they were grouped from. Call in a transaction. */
  replace(collectionPk: number, events: readonly NewEvent[], fingerprint: string): void {
    prepared(this.db, 'DELETE FROM events WHERE collection_pk = ?').run(collectionPk);
    const insert = prepared(
      this.db,
      `INSERT INTO events (collection_pk, event_id, name, start_at, end_at, cover_item_pk, videos, audio, images, places, members, created_at)
       VALUES (@collection_pk, @event_id, @name, @start_at, @end_at, @cover_item_pk, @videos, @audio, @images, @places, @members, @created_at)`,
    );
    const member = prepared(this.db, 'INSERT INTO event_items (event_pk, item_pk) VALUES (?, ?)');
    for (const { items, ...row } of events) {
      const pk = Number(insert.run(row).lastInsertRowid);
      for (const item of items) member.run(pk, item);
    }
    prepared(this.db, 'INSERT INTO event_state (collection_pk, fingerprint) VALUES (?, ?) ON CONFLICT (collection_pk) DO UPDATE SET fingerprint = excluded.fingerprint').run(collectionPk, fingerprint);
  }

  /** A page of a collection's events, newest first. */
  page(collectionPk: number, offset: number, limit: number): EventRow[] {
    return prepared(this.db, 'SELECT * FROM events WHERE collection_pk = ? ORDER BY start_at DESC, pk LIMIT ? OFFSET ?').all(collectionPk, limit, offset) as EventRow[];
  }

  count(collectionPk: number): number {
    return prepared(this.db, 'SELECT count(*) FROM events WHERE collection_pk = ?').pluck().get(collectionPk) as number;
  }

  find(collectionPk: number, eventId: string): EventRow | undefined {
    return prepared(this.db, 'SELECT * FROM events WHERE collection_pk = ? AND event_id = ?').get(collectionPk, eventId) as EventRow | undefined;
  }

  /** An event's items, oldest first. */
  itemsOf(eventPk: number): ItemRow[] {
    return prepared(this.db, 'SELECT i.* FROM event_items e JOIN items i ON i.pk = e.item_pk WHERE e.event_pk = ? ORDER BY i.captured_at, i.pk').all(eventPk) as ItemRow[];
  }

  rename(eventPk: number, name: string | null): void {
    prepared(this.db, 'UPDATE events SET name = ? WHERE pk = ?').run(name, eventPk);
  }

  /**
   * Items recorded in each month in UTC, by type, cut from the stored text (SQLite's date functions parse every
   * row's time, a prefix costs a fraction; the index items_recorded holds all the query reads).
   */
  utcMonths(collectionPk: number): MonthCount[] {
    return prepared(
      this.db,
      `SELECT substr(captured_at, 1, 7) AS month, type, count(*) AS items FROM items WHERE collection_pk = ? AND ${RECORDED} GROUP BY month, type`,
    ).all(collectionPk) as MonthCount[];
  }

  /**
   * The items recorded within 14 hours of a month's turn in UTC (the first day, the last days): the only ones
   * whose month in the server's time zone may be another, which the service moves.
   */
  nearMonthTurns(collectionPk: number): Pick<ItemRow, 'captured_at' | 'type'>[] {
    return prepared(
      this.db,
      `SELECT captured_at, type FROM items WHERE collection_pk = ? AND ${RECORDED} AND substr(captured_at, 9, 2) IN ('01', '28', '29', '30', '31')`,
    ).all(collectionPk) as Pick<ItemRow, 'captured_at' | 'type'>[];
  }

  /** The first and last recording time of a collection (ISO), or null without dated items. */
  span(collectionPk: number): { first: string; last: string } | null {
    const row = prepared(this.db, `SELECT min(captured_at) AS first, max(captured_at) AS last FROM items WHERE collection_pk = ? AND ${RECORDED}`).get(collectionPk) as { first: string | null; last: string | null };
    return row.first && row.last ? { first: row.first, last: row.last } : null;
  }

  /** Items recorded from `from` to before `to` (ISO times), oldest first (the index on the recording time finds them). */
  between(collectionPk: number, from: string, to: string): ItemRow[] {
    return prepared(this.db, `SELECT * FROM items WHERE collection_pk = ? AND captured_at >= ? AND captured_at < ? AND ${RECORDED} ORDER BY captured_at, pk LIMIT 500`).all(collectionPk, from, to) as ItemRow[];
  }

  /** Items without a recording date (none, or only a file's date). */
  undated(collectionPk: number): number {
    return prepared(this.db, `SELECT count(*) FROM items WHERE collection_pk = ? AND NOT ${stagedItem('pk')} AND NOT (${RECORDED})`).pluck().get(collectionPk) as number;
  }

}
