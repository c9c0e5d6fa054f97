/**
 * Dates that phones, messengers and operating systems write into the names of the files they make, for
 * media whose content states no recording date (WhatsApp strips EXIF; screenshots have none), and dates people
 * write into names themselves (`Sprachmemo 2024-03-02 Omas Geburtstag`): real days between 1970 and tomorrow
 * only (docs/api.md, API decisions, Items).
 *
 * A name's clock time has no zone. It is read in the server's local zone, as EXIF DateTimeOriginal (which
 * has no zone either) is read, so a photo and its WhatsApp copy land on the same day. A name that holds only
 * a day (WhatsApp) is read as that day's local midnight.
 */

/** Parts of a date as found in a name (month 1–12); `hour` etc. are 0 when the name has only a day. */
interface Parts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

type Reader = (m: RegExpExecArray) => Parts;

const n = (s: string | undefined): number => (s ? Number(s) : 0);

/** 12-hour clocks (older macOS: `Screen Shot 2019-07-14 at 9.30.12 PM`). */
function hour24(hour: number, meridiem: string | undefined): number {
  if (!meridiem) return hour;
  const pm = meridiem.toUpperCase() === 'PM';
  return (hour % 12) + (pm ? 12 : 0);
}

// The names of known makers, anchored at the start of the name: each reads its own clock format (12-hour,
// a day only). A name none of them matches is searched for a date anywhere ({@link dateInName}).
const PATTERNS: Array<[RegExp, Reader]> = [
  // WhatsApp: IMG-20190714-WA0003, VID-…, AUD-…, PTT-… (voice notes); a day only.
  [/^(?:IMG|VID|AUD|PTT|STK|DOC)-(\d{4})(\d{2})(\d{2})-WA\d+/i, (m) => ({ year: n(m[1]), month: n(m[2]), day: n(m[3]), hour: 0, minute: 0, second: 0, millisecond: 0 })],
  // macOS and iOS screenshots and screen recordings, English and German, 24- or 12-hour clock
  // (newer macOS puts a narrow no-break space before AM/PM).
  [
    /^(?:Screenshot|Screen Shot|Screen Recording|Bildschirmfoto|Bildschirmaufnahme) (\d{4})-(\d{2})-(\d{2}) (?:at|um) (\d{1,2})\.(\d{2})\.(\d{2})(?:[\s\u202f]?([AP]M))?/i,
    (m) => ({ year: n(m[1]), month: n(m[2]), day: n(m[3]), hour: hour24(n(m[4]), m[7]), minute: n(m[5]), second: n(m[6]), millisecond: 0 }),
  ],
  // Windows 11 Snipping Tool: `Screenshot 2023-10-05 143211`, `Screen Recording 2023-10-05 143211`.
  [
    /^(?:Screenshot|Screen Recording|Bildschirmfoto|Bildschirmaufnahme) (\d{4})-(\d{2})-(\d{2}) (\d{2})(\d{2})(\d{2})(?!\d)/i,
    (m) => ({ year: n(m[1]), month: n(m[2]), day: n(m[3]), hour: n(m[4]), minute: n(m[5]), second: n(m[6]), millisecond: 0 }),
  ],
  // Windows Game Bar captures: `Desktop 2023.10.05 - 14.32.11.01`.
  [
    /^.{1,80}? (\d{4})\.(\d{2})\.(\d{2}) - (\d{2})\.(\d{2})\.(\d{2})/,
    (m) => ({ year: n(m[1]), month: n(m[2]), day: n(m[3]), hour: n(m[4]), minute: n(m[5]), second: n(m[6]), millisecond: 0 }),
  ],
  // Android cameras and screenshots: IMG_20190714_093012, VID_…, PXL_20210801_100000123 (with
  // milliseconds), Samsung's bare 20190714_093012, Screenshot_20231005-143211(_Chrome),
  // Screen_Recording_20231005-143211. The prefix is letters only, so a run of other digits is no date.
  [
    /^(?:[A-Za-z]+(?:[_ -][A-Za-z]+)*[_-])?(\d{4})(\d{2})(\d{2})[_-](\d{2})(\d{2})(\d{2})(\d{3})?(?!\d)/,
    (m) => ({ year: n(m[1]), month: n(m[2]), day: n(m[3]), hour: n(m[4]), minute: n(m[5]), second: n(m[6]), millisecond: n(m[7]) }),
  ],
];

/** Names claim no recording before 1970 (a zeroed clock writes 0000 or 1970); later than now is a wrong clock. */
const EARLIEST_YEAR = 1970;
/** A day of slack for the future check: a name's local time may be ahead of UTC. */
const FUTURE_SLACK_MS = 24 * 3600 * 1000;

function toDate(p: Parts, now: Date): Date | null {
  if (p.year < EARLIEST_YEAR || p.month < 1 || p.month > 12 || p.day < 1 || p.hour > 23 || p.minute > 59 || p.second > 59) return null;
  const d = new Date(p.year, p.month - 1, p.day, p.hour, p.minute, p.second, p.millisecond);
  // Date rolls 2019-02-30 over to March 2: a day the month does not have is no date.
  if (d.getFullYear() !== p.year || d.getMonth() !== p.month - 1 || d.getDate() !== p.day) return null;
  if (d.getTime() > now.getTime() + FUTURE_SLACK_MS) return null;
  return d;
}

/** The file name without its folder and extension. */
function stem(name: string): string {
  const base = name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}

/**
 * A day anywhere in a name, `2024-04-03` or `2024.04.03` (one separator throughout), then maybe a clock time:
 * ` at 09.12.44` (WhatsApp's and macOS's exports, `um` in German, 12-hour with AM/PM), ` 09-12-44`, `_09.12.44`,
 * `T09:12:44`, ` 091244`. Or a camera's compact `20240403_091244` (`-` between them too). Groups: year, month,
 * day, then hour, minute, second, AM/PM of a separated clock or hour, minute, second of a compact one; for
 * the compact form year, month, day, hour, minute, second, milliseconds from group 13.
 */
const ANYWHERE = new RegExp(
  [
    // Not inside a longer digit run, a word (v2024-01-02) or a dotted or dashed number chain (1.2024.05.06).
    String.raw`(?<![\p{L}\p{N}]|\p{N}[.-])`,
    String.raw`(?:((?:19|20)\d{2})([-.])(\d{2})\2(\d{2})`,
    String.raw`(?:(?:[ _T-]|\s(?:at|um)\s)(?:(\d{1,2})([.:-])(\d{2})\6(\d{2})(?:[\s\u202f]?([AP]M))?|(\d{2})(\d{2})(\d{2})))?`,
    String.raw`|((?:19|20)\d{2})(\d{2})(\d{2})[_-](\d{2})(\d{2})(\d{2})(\d{3})?)`,
    // Not followed by more digits.
    String.raw`(?!\p{N})`,
  ].join(''),
  'giu',
);

function anywhereParts(m: RegExpExecArray): Parts {
  if (m[13]) return { year: n(m[13]), month: n(m[14]), day: n(m[15]), hour: n(m[16]), minute: n(m[17]), second: n(m[18]), millisecond: n(m[19]) };
  const clock = m[5] ? { hour: hour24(n(m[5]), m[9]), minute: n(m[7]), second: n(m[8]) } : { hour: n(m[10]), minute: n(m[11]), second: n(m[12]) };
  return { year: n(m[1]), month: n(m[3]), day: n(m[4]), ...clock, millisecond: 0 };
}

/**
 * The date a name states somewhere inside it (`WhatsApp Video 2024-04-03 at 09.12.44`, `Sprachmemo
 * 2024-03-02 Omas Geburtstag`, `Urlaub 2023.08.14`, `clip_20240403_091244`), or null. Every date found must
 * be a real day (and a real time, where one is given) between 1970 and tomorrow, and all of them the same
 * day: `Trip 2019-07-01 - 2019-07-14` states no one recording day, and a name with an impossible date in it
 * is not trusted for another.
 */
function dateInName(s: string, now: Date): Date | null {
  let first: Date | null = null;
  for (const m of s.matchAll(ANYWHERE)) {
    // `2024.05.06.1` is a version (CalVer's fourth part), not a day.
    if (m[2] === '.' && !m[5] && !m[10] && /^\.\p{N}/u.test(s.slice(m.index + m[0].length))) continue;
    const d = toDate(anywhereParts(m), now);
    if (!d) return null;
    if (first && d.toDateString() !== first.toDateString()) return null;
    first ??= d;
  }
  return first;
}

/**
 * The recording date a file's name states, as ISO 8601 (UTC), or null when the name states none or its date
 * is impossible (month 13, 2019-02-30, year 0000, later than `now`). Known makers' names first (WhatsApp,
 * cameras, screenshots), else a date anywhere in the name (see {@link dateInName}).
 * @example
 * dateFromFileName('VID-20190714-WA0003.mp4'); // local 2019-07-14 00:00, e.g. '2019-07-14T00:00:00.000Z' on a UTC server
 * dateFromFileName('Screenshot 2023-10-05 at 14.32.11.png'); // local 2023-10-05 14:32:11
 * dateFromFileName('WhatsApp Video 2024-04-03 at 09.12.44.mp4'); // local 2024-04-03 09:12:44
 * dateFromFileName('holiday.mp4'); // null
 */
export function dateFromFileName(name: string, now: Date = new Date()): string | null {
  const s = stem(name.normalize('NFC')).trim();
  for (const [re, read] of PATTERNS) {
    const m = re.exec(s);
    if (!m) continue;
    const d = toDate(read(m), now);
    // A name that matches a pattern but holds an impossible date states nothing: no weaker pattern is tried.
    return d ? d.toISOString() : null;
  }
  return dateInName(s, now)?.toISOString() ?? null;
}
