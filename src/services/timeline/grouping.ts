/**
 * Events from items (issue 47): what was recorded close together in time and place. At home (the collection's
 * most frequent city) an event is one day: items of the calendar day its first item was recorded on, and
 * items less than 3 h apart across midnight. Away from home it is a trip: it goes on while items away follow
 * each other within 3 days (a day without photos does not end it), so a weekend in Lisbon is one event and the
 * day back home starts another. Items without a place take the side of what is around them in time. Pure:
 * the service stores what this returns.
 */
import type { DatedItem } from '../../store/events.js';
import type { Place } from '../../media/places/place.js';

/** Items this close (hours) are one event whatever the day. */
const CLOSE_HOURS = 3;
/** Items of one day at home this close (hours) are one event. */
const DAY_HOURS = 16;
/** Items away from home this close (hours) are one trip. */
const TRIP_HOURS = 72;

/** One event's items, oldest first, and whether it is a trip away from home. */
export interface ItemGroup {
  items: DatedItem[];
  trip: boolean;
}

/** A place's key: its city in its country. */
export function cityKey(p: Pick<Place, 'city' | 'country_code'>): string {
  return `${p.country_code}:${p.city}`;
}

/** The parsed place of an item, or null. */
export function placeOf(item: Pick<DatedItem, 'place'>): Place | null {
  return item.place ? (JSON.parse(item.place) as Place) : null;
}

/**
 * The collection's usual place: the city most of its placed items were recorded in (null without places).
 * @example
 * homeCity(items); // 'DE:Berlin'
 */
export function homeCity(items: readonly DatedItem[]): string | null {
  const counts = new Map<string, number>();
  for (const item of items) {
    const p = placeOf(item);
    if (p) counts.set(cityKey(p), (counts.get(cityKey(p)) ?? 0) + 1);
  }
  let best: string | null = null;
  for (const [key, n] of counts) if (best === null || n > counts.get(best)!) best = key;
  return best;
}

/**
 * Items (oldest first) in events.
 * @example
 * groupEvents(store.events.datedItems(pk)); // [{ items: [...], trip: false }, { items: [...], trip: true }]
 */
export function groupEvents(items: readonly DatedItem[], localDay: (iso: string) => string = serverDay): ItemGroup[] {
  const home = homeCity(items);
  // Each item's city is read once: a collection of 100,000 items would parse its places many times over.
  const cities = new Map(items.map((item) => [item, item.place ? cityKey(placeOf(item)!) : null]));
  const placed = (item: DatedItem) => cities.get(item) !== null;
  const away = (item: DatedItem) => home !== null && placed(item) && cities.get(item) !== home;
  const groups: ItemGroup[] = [];
  let last: DatedItem | null = null;
  for (const item of items) {
    const group = groups.at(-1);
    const hours = last ? (Date.parse(item.captured_at) - Date.parse(last.captured_at)) / 3_600_000 : Infinity;
    // The day of the event's first item: a party that went on past midnight does not take the next day with it.
    const sameDay = group !== undefined && localDay(group.items[0]!.captured_at) === localDay(item.captured_at) && hours <= DAY_HOURS;
    const onTrip = group?.trip === true && hours <= TRIP_HOURS && (away(item) || !placed(item));
    // A trip ends where home begins again: an item at home after one away starts a new event even that day.
    const backHome = group?.trip === true && !away(item) && placed(item);
    if (group && !backHome && (hours <= CLOSE_HOURS || onTrip || (sameDay && !(away(item) && !group.trip)))) {
      group.items.push(item);
      if (away(item)) group.trip = true;
    } else {
      groups.push({ items: [item], trip: away(item) });
    }
    last = item;
  }
  return groups;
}

/** A moment's calendar day in the server's time zone (`YYYY-MM-DD`). */
export function serverDay(iso: string): string {
  const d = new Date(iso);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}
