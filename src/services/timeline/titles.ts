/**
 * An event's title in the reader's language, from its place and its dates (Intl's date ranges do the
 * languages' own ways of writing them): "Lisbon, 3–5 May 2024" / "Lissabon, 3.–5. Mai 2024", "Vienna,
 * 10 June 2023", a long trip by its months ("Lisbon, May 2024"), or the day alone without a place.
 */
import type { Lang } from '../../messages/index.js';
import type { Place } from '../../media/places/place.js';

/** A trip at least this long (days) is titled by its month(s), not its days. */
const LONG_TRIP_DAYS = 7;

const LOCALE: Record<Lang, string> = { en: 'en-GB', de: 'de-DE' };

/**
 * The title of an event from `start` to `end` (ISO times) at `place`.
 * @example
 * eventTitle({ city: 'Vienna', … }, '2023-06-10T09:00:00Z', '2023-06-12T18:00:00Z', 'en'); // 'Vienna, 10–12 June 2023'
 * eventTitle(null, '2023-06-10T09:00:00Z', '2023-06-10T18:00:00Z', 'de'); // '10. Juni 2023'
 */
export function eventTitle(place: Pick<Place, 'city'> | null, start: string, end: string, lang: Lang): string {
  const from = new Date(start);
  const to = new Date(end);
  const long = (to.getTime() - from.getTime()) / 86_400_000 >= LONG_TRIP_DAYS;
  const format = new Intl.DateTimeFormat(LOCALE[lang], long ? { month: 'long', year: 'numeric' } : { day: 'numeric', month: 'long', year: 'numeric' });
  const when = format.formatRange(from, to);
  return place ? `${place.city}, ${when}` : when;
}
