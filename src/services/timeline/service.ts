/**
 * The archive by time (issue 47): events (items close in time and place, grouping.ts), what was recorded on
 * this calendar day in earlier years, and the timeline's counts by year and month. Dates are the items'
 * recording dates in the server's time zone; an item with only a file's date counts as undated.
 */
import { LRUMap } from 'mnemonist';
import { v7 as uuid7 } from 'uuid';
import { inTransaction } from '../../store/connection.js';
import type { EventRow, MonthCount, NewEvent } from '../../store/events.js';
import type { Repos } from '../../store/index.js';
import type { Lang } from '../../messages/index.js';
import { placeIn } from '../../media/places/local-names.js';
import type { Place } from '../../media/places/place.js';
import { ownsOrAdmin, type Caller } from '../caller.js';
import type { CollectionService } from '../collections.js';
import { fieldProblem, notFound } from '../errors.js';
import type { ItemService, ItemView } from '../items.js';
import { nowIso, systemClock, type WallClock } from '../timestamps.js';
import { groupEvents, placeOf, serverDay, type ItemGroup } from './grouping.js';
import { eventTitle } from './titles.js';

/** An event as the API shows it. */
export interface EventView {
  event_id: string;
  /** Its name where a person gave one, else made from its place and dates in the reader's language. */
  title: string;
  /** The name a person gave it; null when its title is made. */
  name: string | null;
  start: string;
  end: string;
  /** The item that best shows it: a photo or video nearest its middle. */
  cover: ItemView | null;
  counts: { video: number; audio: number; image: number };
  /** Its places, most items first, named in the reader's language. */
  places: Place[];
}

/** Items of one month. */
export interface MonthView {
  month: number;
  items: number;
  by_type: { video: number; audio: number; image: number };
  /** Its first and last instant in the server's time zone (ISO): the items list's captured_after and captured_before. */
  from: string;
  to: string;
}

/** The first and last instant of a month (or a year, month 0 and 12 months) in the server's time zone. */
function span(year: number, month: number, months = 1): { from: string; to: string } {
  return { from: new Date(year, month - 1, 1).toISOString(), to: new Date(new Date(year, month - 1 + months, 1).getTime() - 1).toISOString() };
}

/**
 * Events, on-this-day and the timeline of a collection.
 * @example
 * const { events } = timeline.events(caller, 'family', { offset: 0, limit: 20 }, 'en');
 */
/** A collection's timeline, and the item change count it was counted at. */
type Counted = { at: string; timeline: TimelineView };

/** What GET …/timeline answers. */
export interface TimelineView {
  years: { year: number; items: number; from: string; to: string; months: MonthView[] }[];
  undated: number;
}

/** Timelines kept between changes (a scan of 100,000 items costs ~100 ms; a kept one nothing). */
const KEPT_TIMELINES = 64;

export class TimelineService {
  private readonly counted = new LRUMap<number, Counted>(KEPT_TIMELINES);

  constructor(
    private readonly store: Repos<'db' | 'events' | 'items'>,
    private readonly collections: CollectionService,
    private readonly items: Pick<ItemService, 'view'>,
    private readonly time: WallClock = systemClock,
  ) {}

  /** A page of a collection's events, newest first (grouped again first when its items changed). */
  events(caller: Caller, collectionId: string, page: { offset: number; limit: number; public?: boolean }, lang: Lang): { events: EventView[]; total: number } {
    const c = this.collections.readable(caller, collectionId, { public: page.public === true });
    this.refresh(c.pk);
    const owner = ownsOrAdmin(caller, c.owner);
    return { events: this.store.events.page(c.pk, page.offset, page.limit).map((e) => this.view(e, lang, owner)), total: this.store.events.count(c.pk) };
  }

  /** One event with its items, oldest first. */
  event(caller: Caller, collectionId: string, eventId: string, lang: Lang, opts: { public?: boolean } = {}): EventView & { items: ItemView[] } {
    const c = this.collections.readable(caller, collectionId, { public: opts.public === true });
    this.refresh(c.pk);
    const row = this.store.events.find(c.pk, eventId);
    if (!row) throw notFound('event', eventId);
    const owner = ownsOrAdmin(caller, c.owner);
    return { ...this.view(row, lang, owner), items: this.store.events.itemsOf(row.pk).map((i) => this.items.view(i, owner)) };
  }

  /** Gives an event a name (null: its made title again); the name stays across regrouping and re-indexing. */
  rename(caller: Caller, collectionId: string, eventId: string, name: string | null, lang: Lang): EventView {
    const c = this.collections.writable(caller, collectionId);
    this.refresh(c.pk);
    const row = this.store.events.find(c.pk, eventId);
    if (!row) throw notFound('event', eventId);
    const named = name?.trim() || null;
    this.store.events.rename(row.pk, named);
    return this.view({ ...row, name: named }, lang, true);
  }

  /**
   * What was recorded on `date`'s calendar day (default today, by the server's clock) in earlier years,
   * grouped by year, newest first.
   */
  onThisDay(caller: Caller, collectionId: string, date: string | undefined, opts: { public?: boolean } = {}): { date: string; years: { year: number; items: ItemView[] }[] } {
    const c = this.collections.readable(caller, collectionId, { public: opts.public === true });
    const day = date ?? serverDay(nowIso(this.time));
    if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(Date.parse(`${day}T00:00:00`)) || serverDay(`${day}T12:00:00`) !== day) {
      throw fieldProblem('invalid', 'date', 'must be a calendar date YYYY-MM-DD, e.g. 2026-07-14');
    }
    const owner = ownsOrAdmin(caller, c.owner);
    const span = this.store.events.span(c.pk);
    const [, month, dayOfMonth] = day.split('-').map(Number) as [number, number, number];
    const years: { year: number; items: ItemView[] }[] = [];
    // One range a year, the day's local midnight to the next, each found by the index on the recording time.
    for (let year = Number(day.slice(0, 4)) - 1; span && year >= Number(serverDay(span.first).slice(0, 4)); year--) {
      const from = new Date(year, month - 1, dayOfMonth);
      if (from.getMonth() !== month - 1) continue; // 29 February of a year without it
      const rows = this.store.events.between(c.pk, from.toISOString(), new Date(year, month - 1, dayOfMonth + 1).toISOString());
      if (rows.length) years.push({ year, items: rows.map((r) => this.items.view(r, owner)) });
    }
    return { date: day, years };
  }

  /** Items by year and month (the server's time zone), oldest first; items without a recording date apart. */
  timeline(caller: Caller, collectionId: string, opts: { public?: boolean } = {}): TimelineView {
    const c = this.collections.readable(caller, collectionId, { public: opts.public === true });
    // Counted again only when an item came, went or changed since (the triggers' count, as for events).
    const at = this.store.events.fingerprint(c.pk);
    const kept = this.counted.get(c.pk);
    if (kept?.at === at) return kept.timeline;
    const timeline = this.count(c.pk);
    this.counted.set(c.pk, { at, timeline });
    return timeline;
  }

  /** The timeline of a collection, counted. */
  private count(collectionPk: number): TimelineView {
    const years = new Map<number, Map<number, MonthView>>();
    const add = (year: number, month: number, type: MonthCount['type'], n: number) => {
      const months = years.get(year) ?? new Map<number, MonthView>();
      years.set(year, months);
      const view = months.get(month) ?? { month, items: 0, by_type: { video: 0, audio: 0, image: 0 }, ...span(year, month) };
      months.set(month, view);
      view.items += n;
      view.by_type[type] += n;
    };
    for (const m of this.store.events.utcMonths(collectionPk)) add(Number(m.month.slice(0, 4)), Number(m.month.slice(5, 7)), m.type, m.items);
    // An item near a month's turn may lie in another month on the server's clock: it moves there.
    for (const item of this.store.events.nearMonthTurns(collectionPk)) {
      const local = new Date(item.captured_at!);
      const [year, month] = [Number(item.captured_at!.slice(0, 4)), Number(item.captured_at!.slice(5, 7))];
      if (local.getFullYear() === year && local.getMonth() + 1 === month) continue;
      add(year, month, item.type, -1);
      add(local.getFullYear(), local.getMonth() + 1, item.type, 1);
    }
    // Sorted: a month moved in may come after later ones, and a month moved out may be left empty.
    for (const [year, months] of years) {
      const kept = [...months.values()].filter((m) => m.items > 0).sort((a, b) => a.month - b.month);
      if (kept.length === 0) years.delete(year);
      else years.set(year, new Map(kept.map((m) => [m.month, m])));
    }
    return {
      years: [...years].sort(([a], [b]) => a - b).map(([year, months]) => ({ year, items: [...months.values()].reduce((s, m) => s + m.items, 0), ...span(year, 1, 12), months: [...months.values()] })),
      undated: this.store.events.undated(collectionPk),
    };
  }

  /**
   * Groups a collection's items into events again when they changed since the last grouping. The new events
   * keep the ids, names and dates of the old ones they share most items with.
   */
  refresh(collectionPk: number): void {
    const fingerprint = this.store.events.fingerprint(collectionPk);
    if (this.store.events.storedFingerprint(collectionPk) === fingerprint) return;
    inTransaction(this.store.db, () => {
      const groups = groupEvents(this.store.events.datedItems(collectionPk));
      const kept = keptIdentities(this.store.events.groups(collectionPk), groups);
      const at = nowIso(this.time);
      const events = groups.map((g, i): NewEvent => ({ ...eventOf(collectionPk, g), event_id: kept[i]?.event_id ?? `event-${uuid7()}`, name: kept[i]?.name ?? null, created_at: kept[i]?.created_at ?? at }));
      this.store.events.replace(collectionPk, events, fingerprint);
    });
  }

  /** An event as the API shows it; `owner`: the caller may see where its items lie in their folder. */
  private view(row: EventRow, lang: Lang, owner: boolean): EventView {
    const places = (JSON.parse(row.places) as Place[]).map((p) => placeIn(p, lang));
    const cover = row.cover_item_pk === null ? undefined : this.store.items.byPk(row.cover_item_pk);
    return {
      event_id: row.event_id,
      title: row.name ?? eventTitle(places[0] ?? null, row.start_at, row.end_at, lang),
      name: row.name,
      start: row.start_at,
      end: row.end_at,
      cover: cover ? this.items.view(cover, owner) : null,
      counts: { video: row.videos, audio: row.audio, image: row.images },
      places,
    };
  }
}

/** An event's row from its items: its span, counts, places (most items first) and cover. */
function eventOf(collectionPk: number, g: ItemGroup): Omit<NewEvent, 'event_id' | 'name' | 'created_at'> {
  const count = (type: string) => g.items.filter((i) => i.type === type).length;
  // A city's place is read from its first item (its name is the same in every other).
  const places = new Map<string, { place: Place; n: number }>();
  for (const item of g.items) {
    if (!item.city) continue;
    const entry = places.get(item.city) ?? { place: { ...placeOf(item)!, district: null }, n: 0 };
    entry.n++;
    places.set(item.city, entry);
  }
  const start = g.items[0]!.captured_at;
  const end = g.items.at(-1)!.captured_at;
  const middle = (Date.parse(start) + Date.parse(end)) / 2;
  const shown = g.items.filter((i) => i.type !== 'audio');
  const cover = (shown.length ? shown : g.items).reduce((best, i) => (Math.abs(Date.parse(i.captured_at) - middle) < Math.abs(Date.parse(best.captured_at) - middle) ? i : best));
  return {
    collection_pk: collectionPk, start_at: start, end_at: end, cover_item_pk: cover.pk,
    videos: count('video'), audio: count('audio'), images: count('image'),
    places: JSON.stringify([...places.values()].sort((a, b) => b.n - a.n).map((e) => e.place)),
    members: JSON.stringify(g.items.map((i) => i.media_id)),
    items: g.items.map((i) => i.pk),
  };
}

/**
 * For each new group, the old event it takes over: the one sharing most items with it, each old event taken
 * once, larger overlaps first.
 */
function keptIdentities<T extends { members: string[] }>(old: readonly T[], groups: readonly ItemGroup[]): (T | undefined)[] {
  const owner = new Map<string, number>();
  old.forEach((e, i) => {
    for (const member of e.members) owner.set(member, i);
  });
  const pairs: { group: number; old: number; shared: number }[] = [];
  groups.forEach((g, gi) => {
    const shared = new Map<number, number>();
    for (const item of g.items) {
      const o = owner.get(item.media_id);
      if (o !== undefined) shared.set(o, (shared.get(o) ?? 0) + 1);
    }
    for (const [o, n] of shared) pairs.push({ group: gi, old: o, shared: n });
  });
  const out = new Array<T | undefined>(groups.length);
  const taken = new Set<number>();
  for (const p of pairs.sort((a, b) => b.shared - a.shared)) {
    if (out[p.group] !== undefined || taken.has(p.old)) continue;
    out[p.group] = old[p.old];
    taken.add(p.old);
  }
  return out;
}
