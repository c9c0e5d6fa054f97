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

/** The parsed place of an item, or null. */
export function placeOf(item: Pick<DatedItem, 'place'>): Place | null {
  return item.place ? (JSON.parse(item.place) as Place) : null;
}

/**
 * The collection's usual place: the city most of its placed items were recorded in (null without places).
 * @example
 * homeCity(items); // 'DE:Berlin'
 */
export function homeCity(items: readonly Pick<DatedItem, 'city'>[]): string | null {
  const counts = new Map<string, number>();
  for (const { city } of items) if (city) counts.set(city, (counts.get(city) ?? 0) + 1);
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
  const away = (item: DatedItem) => home !== null && item.city !== null && item.city !== home;
  const groups: ItemGroup[] = [];
  let last = -Infinity;
  let firstDay = '';
  for (const item of items) {
    const group = groups.at(-1);
    const at = Date.parse(item.captured_at);
    const day = localDay(item.captured_at);
    const hours = (at - last) / 3_600_000;
    // The day of the event's first item: a party that went on past midnight does not take the next day with it.
    const sameDay = group !== undefined && firstDay === day && hours <= DAY_HOURS;
    const onTrip = group?.trip === true && hours <= TRIP_HOURS && (away(item) || item.city === null);
    // A trip ends where home begins again: an item at home after one away starts a new event even that day.
    const backHome = group?.trip === true && !away(item) && item.city !== null;
    if (group && !backHome && (hours <= CLOSE_HOURS || onTrip || (sameDay && !(away(item) && !group.trip)))) {
      group.items.push(item);
      if (away(item)) group.trip = true;
    } else {
      groups.push({ items: [item], trip: away(item) });
      firstDay = day;
    }
    last = at;
  }
  return groups;
}

/** A moment's calendar day in the server's time zone (`YYYY-MM-DD`). */
export function serverDay(iso: string): string {
  const d = new Date(iso);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}
