/**
 * Dates said in the words of a search, in English and German: what chrono-node reads ("May 2024", "last year",
 * "14. Juli 2019", "letzte Woche"), and the few things it leaves alone, added here by hand: a bare year ("2019",
 * "im Jahr 2019"), a span of years ("2019 bis 2021"), a German month and year ("Mai 2024"), seasons and holidays
 * with a year or "last"/"this" ("Sommer 2023", "last summer", "Weihnachten 2022"). Every date becomes a span of
 * whole days on the calendar of the server's time zone; relative ones count from the `now` they are given.
 */
import * as chrono from 'chrono-node';

/** A span of whole days (inclusive, `YYYY-MM-DD` on the server's calendar) and where the query says it. */
export interface SaidDays {
  from: string;
  to: string;
  /** The characters of the query that say it: [start, end). */
  start: number;
  end: number;
}

/** A local calendar day (month 1–12; out-of-range days roll over, as `Date` does). */
const day = (y: number, m: number, d: number) => new Date(y, m - 1, d);
const pad = (n: number) => String(n).padStart(2, '0');

/**
 * A local date as `YYYY-MM-DD`.
 * @example
 * dayText(new Date(2019, 6, 14)); // '2019-07-14'
 */
export const dayText = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

type Span = { from: Date; to: Date };

const yearSpan = (y: number): Span => ({ from: day(y, 1, 1), to: day(y, 12, 31) });
const monthSpan = (y: number, m: number): Span => ({ from: day(y, m, 1), to: day(y, m + 1, 0) });

/** Seasons (meteorological: winter Y is December Y to February Y+1) and holidays, as days of year `y`. */
const OCCASIONS = {
  spring: (y: number) => ({ from: day(y, 3, 1), to: day(y, 5, 31) }),
  summer: (y: number) => ({ from: day(y, 6, 1), to: day(y, 8, 31) }),
  autumn: (y: number) => ({ from: day(y, 9, 1), to: day(y, 11, 30) }),
  winter: (y: number) => ({ from: day(y, 12, 1), to: day(y + 1, 3, 0) }),
  christmas: (y: number) => ({ from: day(y, 12, 24), to: day(y, 12, 26) }),
  new_year_eve: (y: number) => ({ from: day(y, 12, 31), to: day(y, 12, 31) }),
} satisfies Record<string, (y: number) => Span>;

type Occasion = keyof typeof OCCASIONS;

const OCCASION_NAMES: Record<string, Occasion> = {
  spring: 'spring', frühling: 'spring', frühjahr: 'spring', summer: 'summer', sommer: 'summer',
  autumn: 'autumn', fall: 'autumn', herbst: 'autumn', winter: 'winter',
  christmas: 'christmas', xmas: 'christmas', weihnachten: 'christmas', "new year's eve": 'new_year_eve', silvester: 'new_year_eve',
};

const GERMAN_MONTHS = ['januar', 'februar', 'märz', 'april', 'mai', 'juni', 'juli', 'august', 'september', 'oktober', 'november', 'dezember'];

// A word edge in any script; a year is no part of a longer number, a date (2019-07) or a time.
const B = '(?<![\\p{L}\\p{N}])';
const E = '(?![\\p{L}\\p{N}])';
const YEAR = '((?:19|20)\\d\\d)';
const LAST = 'last|previous|letzte[nrs]?|vergangene[nrs]?';
const THIS = 'this|diese[nrs]?';
const OCCASION_RE = new RegExp(`${B}(?:(${LAST}|${THIS})\\s+)?(${Object.keys(OCCASION_NAMES).join('|')})(?:\\s+${YEAR})?${E}`, 'giu');
const MONTH_RE = new RegExp(`${B}(${GERMAN_MONTHS.join('|')}|jänner)\\s+${YEAR}${E}`, 'giu');
const YEARS_RE = new RegExp(`${B}(?:(?:from|von|zwischen|between)\\s+)?${YEAR}\\s*(?:-|–|to|until|bis|and|und)\\s*${YEAR}${E}`, 'giu');
const YEAR_RE = new RegExp(`${B}(?:(?:im\\s+jahre?|in\\s+the\\s+year)\\s+)?(?<![\\d./:-])${YEAR}(?![\\d/:]|[.-]\\d)${E}`, 'giu');

/** Whether a span has ended before the day `now` falls on. */
const endedBefore = (s: Span, now: Date) => s.to < day(now.getFullYear(), now.getMonth() + 1, now.getDate());

/** The days of a season or holiday: of the year given, this year's, or the last one that has ended ("last summer"). */
function occasionSpan(occasion: Occasion, qualifier: string | undefined, year: string | undefined, now: Date): Span | null {
  const of = OCCASIONS[occasion];
  if (year) return of(Number(year));
  if (!qualifier) return null; // "summer" alone is no one span: it stays a word
  if (new RegExp(`^(?:${THIS})$`, 'iu').test(qualifier)) return of(occasion === 'winter' && now.getMonth() < 2 ? now.getFullYear() - 1 : now.getFullYear());
  for (let y = now.getFullYear(); ; y--) if (endedBefore(of(y), now)) return of(y);
}

/** The spans the hand-made rules find, each with where it is said. */
function handSpans(query: string, now: Date): (Span & { start: number; end: number })[] {
  const out: (Span & { start: number; end: number })[] = [];
  const at = (m: RegExpExecArray, s: Span | null) => s && out.push({ ...s, start: m.index, end: m.index + m[0].length });
  for (const m of query.matchAll(OCCASION_RE)) at(m, occasionSpan(OCCASION_NAMES[m[2]!.toLowerCase()]!, m[1], m[3], now));
  for (const m of query.matchAll(MONTH_RE)) {
    const name = m[1]!.toLowerCase();
    at(m, monthSpan(Number(m[2]), name === 'jänner' ? 1 : GERMAN_MONTHS.indexOf(name) + 1));
  }
  for (const m of query.matchAll(YEARS_RE)) {
    const [a, b] = [Number(m[1]), Number(m[2])].sort((x, y) => x - y);
    at(m, { from: yearSpan(a!).from, to: yearSpan(b!).to });
  }
  for (const m of query.matchAll(YEAR_RE)) at(m, yearSpan(Number(m[1])));
  return out;
}

/** The days one side of a chrono result covers: its week ("last week"), day, month or year, whichever it names. */
function componentSpan(c: chrono.ParsedComponents, week: boolean): Span {
  const d = c.date();
  if (week) {
    const monday = day(d.getFullYear(), d.getMonth() + 1, d.getDate() - ((d.getDay() + 6) % 7));
    return { from: monday, to: day(monday.getFullYear(), monday.getMonth() + 1, monday.getDate() + 6) };
  }
  if (c.isCertain('day')) return { from: day(d.getFullYear(), d.getMonth() + 1, d.getDate()), to: day(d.getFullYear(), d.getMonth() + 1, d.getDate()) };
  if (c.isCertain('month')) return monthSpan(d.getFullYear(), d.getMonth() + 1);
  return yearSpan(d.getFullYear());
}

/**
 * The dates chrono reads in English and in German. Only dates that name their year (or are relative to
 * today): "may" or "march" alone are words far more often than months, and a clock time ("at 5", "now") is
 * no day.
 */
function chronoSpans(query: string, now: Date): (Span & { start: number; end: number })[] {
  const results = [...chrono.en.parse(query, now), ...chrono.de.parse(query, now)];
  return results
    .filter((r) => r.start.isCertain('year') && !r.start.isCertain('hour'))
    .map((r) => {
      const week = /week|woche/i.test(r.text);
      const first = componentSpan(r.start, week);
      const last = r.end ? componentSpan(r.end, week) : first;
      return { from: first.from, to: last.to < first.from ? first.to : last.to, start: r.index, end: r.index + r.text.length };
    });
}

/**
 * The first date a query says, as whole days, or null when it says none. Where two readings overlap, the
 * longer wins ("14. Juli 2019" over "2019"). A date that begins after today is no date of a recording: it
 * stays words ("guten Morgen" is not tomorrow, "Agenda 2030" no year).
 * @example
 * daysSaid('Lisbon 2019', new Date()); // { from: '2019-01-01', to: '2019-12-31', start: 7, end: 11 }
 * daysSaid('Wien im Sommer 2023', new Date()); // { from: '2023-06-01', to: '2023-08-31', start: 8, end: 19 }
 * daysSaid('last summer', new Date(2026, 10, 29)); // { from: '2026-06-01', to: '2026-08-31', … }
 */
export function daysSaid(query: string, now: Date): SaidDays | null {
  const today = day(now.getFullYear(), now.getMonth() + 1, now.getDate());
  const found = [...chronoSpans(query, now), ...handSpans(query, now)].filter((s) => s.from <= today).sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start);
  const kept: typeof found = [];
  for (const s of found) if (!kept.some((k) => s.start < k.end && k.start < s.end)) kept.push(s);
  const first = kept.sort((a, b) => a.start - b.start)[0];
  return first ? { from: dayText(first.from), to: dayText(first.to), start: first.start, end: first.end } : null;
}

/**
 * The bounds of whole days as the `captured_after` / `captured_before` filters take them: the first and the
 * last millisecond of those days in the server's time zone, in UTC.
 * @example
 * dayBounds({ from: '2019-01-01', to: '2019-12-31' }); // { after: '2019-01-01T00:00:00.000Z', before: '2019-12-31T23:59:59.999Z' } (in UTC)
 */
export function dayBounds(days: { from: string; to: string }): { after: string; before: string } {
  const [fy, fm, fd] = days.from.split('-').map(Number);
  const [ty, tm, td] = days.to.split('-').map(Number);
  return { after: day(fy!, fm!, fd!).toISOString(), before: new Date(day(ty!, tm!, td! + 1).getTime() - 1).toISOString() };
}

/** Phrases whose reading makes chrono-node compile what its first searches would (English and German, years, seasons). */
const WARM_PHRASES = ['birthday cake 2019', 'football last summer in May 2024', 'Geburtstag im letzten Sommer, 14. Juli 2019'];

/**
 * Reads a few dated phrases once, so the first searches after a start do not pay chrono-node's first
 * readings: 200–300 ms on this machine, most of it for a year such as "2019" (measured 2026-11-29).
 * @example
 * warmDateWords(); // at start, before the server listens
 */
export function warmDateWords(): void {
  for (const phrase of WARM_PHRASES) daysSaid(phrase, new Date());
}
