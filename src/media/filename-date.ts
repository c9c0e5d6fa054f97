/**
 * Dates that phones, messengers and operating systems write into the names of the files they make, for
 * media whose content states no recording date (WhatsApp strips EXIF; screenshots have none).
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

// Each pattern is anchored at the start of the name so a date somewhere inside an arbitrary title
// ("Best of 2019-07-14 party") is not taken for a recording date.
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
 * The recording date a file's name states, as ISO 8601 (UTC), or null when the name follows none of the
 * known patterns or its date is impossible (month 13, 2019-02-30, year 0000, later than `now`).
 * @example
 * dateFromFileName('VID-20190714-WA0003.mp4'); // local 2019-07-14 00:00, e.g. '2019-07-14T00:00:00.000Z' on a UTC server
 * dateFromFileName('Screenshot 2023-10-05 at 14.32.11.png'); // local 2023-10-05 14:32:11
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
  return null;
}
