/** Small text helpers the views share. */
import { VidxError } from '../../src/client/errors.js';
import type { Lang } from '../../src/messages/index.js';

/** Seconds as m:ss (or h:mm:ss): the server's clock, so the page and the answers write a time one way. */
export { clock } from '../../src/tools/clock.js';

/**
 * The words of a query worth marking in a passage (three letters or more, or digits).
 * @example
 * queryWords('the penalty shot'); // ['the', 'penalty', 'shot']
 */
export function queryWords(query: string): string[] {
  return [...new Set(query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])].filter((w) => w.length >= 3 || /\d/.test(w));
}

/**
 * Splits a text into plain and matching parts: a part matches when it starts with one of the words
 * (so "shots" is marked for "shot"), case-insensitively.
 * @example
 * highlightParts('Penalty shots today', ['shot']); // [{text:'Penalty ',hit:false},{text:'shots',hit:true},{text:' today',hit:false}]
 */
export function highlightParts(text: string, words: string[]): { text: string; hit: boolean }[] {
  if (!words.length) return [{ text, hit: false }];
  const parts: { text: string; hit: boolean }[] = [];
  for (const token of text.split(/([\p{L}\p{N}]+)/u)) {
    if (!token) continue;
    const lower = token.toLowerCase();
    const hit = words.some((w) => lower.startsWith(w));
    const last = parts[parts.length - 1];
    if (last && last.hit === hit) last.text += token;
    else parts.push({ text: token, hit });
  }
  return parts;
}

/**
 * A signed link without its `#t=` fragment (the player seeks itself).
 * @example
 * stripFragment('http://127.0.0.1:8484/files/a.mp4?sig=x#t=12'); // 'http://127.0.0.1:8484/files/a.mp4?sig=x'
 */
export function stripFragment(url: string): string {
  const i = url.indexOf('#');
  return i < 0 ? url : url.slice(0, i);
}

/**
 * Whether a URL is one of this server's: same origin, or a signed `/files/` link (whose origin is
 * VIDX_PUBLIC_URL, which may differ from the address bar). The page plays nothing from another host,
 * and its content security policy would refuse it anyway.
 * @example
 * ownMedia('http://127.0.0.1:8484/files/x.mp4?exp=1&sig=y'); // true
 */
export function ownMedia(url: string): boolean {
  try {
    const u = new URL(url, location.href);
    return u.origin === location.origin || (u.pathname.startsWith('/files/') && u.searchParams.has('sig'));
  } catch {
    return false;
  }
}

/** The page's one way of writing a day: "14 Jul 2019" / "14. Juli 2019" (the time added where it matters). */
const DAY: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'short', day: 'numeric' };

/**
 * A date and time in the page's language ("14 Jul 2019, 09:30"), or '' when it is not a date: for what
 * happened at a time (a task, a scan, a recording, an expiry).
 * @example
 * dateTime('2019-07-14T09:30:00Z', 'en');
 */
export function dateTime(iso: string, lang: Lang): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return d.toLocaleString(lang === 'de' ? 'de-DE' : 'en-GB', { ...DAY, hour: '2-digit', minute: '2-digit' });
}

/**
 * A day in the page's language ("14 Jul 2019"), or '' when it is not a date: for when a picture was taken.
 * @example
 * dateText('2019-07-14T09:30:00Z', 'de'); // '14. Juli 2019'
 */
export function dateText(iso: string, lang: Lang): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return d.toLocaleDateString(lang === 'de' ? 'de-DE' : 'en-GB', DAY);
}

/**
 * Days a search understood (inclusive, `YYYY-MM-DD`) in the page's language, as short as they allow: a year
 * ("2019"), years ("2019 – 2021"), a month ("May 2024" / "Mai 2024"), a day, else the first and last day.
 * @example
 * daysText('2019-01-01', '2019-12-31', 'en'); // '2019'
 * daysText('2023-06-01', '2023-08-31', 'de'); // '1. Juni – 31. Aug. 2023'
 */
export function daysText(from: string, to: string, lang: Lang): string {
  const locale = lang === 'de' ? 'de-DE' : 'en-GB';
  const [fy, fm, fd] = from.split('-').map(Number);
  const [ty, tm, td] = to.split('-').map(Number);
  const first = new Date(Date.UTC(fy!, fm! - 1, fd!));
  const last = new Date(Date.UTC(ty!, tm! - 1, td!));
  const lastOfMonth = new Date(Date.UTC(ty!, tm!, 0)).getUTCDate() === td;
  if (fm === 1 && fd === 1 && tm === 12 && td === 31) return fy === ty ? String(fy) : `${fy} – ${ty}`;
  if (fy === ty && fm === tm && fd === 1 && lastOfMonth) return first.toLocaleDateString(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' });
  const format = new Intl.DateTimeFormat(locale, { ...DAY, timeZone: 'UTC' });
  return from === to ? format.format(first) : format.formatRange(first, last);
}

/** Where an item was recorded, as the API names it (MediaItem.place). */
export interface PlaceName {
  city: string;
  district?: string | null;
  country_code: string;
}

/**
 * A place in words in the page's language: district, city and the country's name as the browser says it
 * in that language ("Kreuzberg, Berlin, Deutschland").
 * @example
 * placeText({ city: 'Lisbon', district: null, country_code: 'PT' }, 'de'); // 'Lisbon, Portugal'
 */
export function placeText(place: PlaceName, lang: Lang): string {
  let country = place.country_code;
  try {
    country = new Intl.DisplayNames([lang], { type: 'region' }).of(place.country_code) ?? country;
  } catch {
    // A code the browser does not know (Kosovo's XK in older ones) is shown as it is.
  }
  return [place.district, place.city, country].filter(Boolean).join(', ');
}

/**
 * What a refusal says about one field, as a sentence for beside that field (the API's detail prefixes the
 * field's name, which the form already shows as the field's label); the whole detail otherwise.
 * @example
 * fieldSentence(err, 'path'); // 'The folder "/etc" is outside the configured media roots (VIDX_MEDIA_ROOTS).'
 */
export function fieldSentence(err: Error, field: string): string {
  const said = err instanceof VidxError ? err.errors.find((e) => e.field === field)?.message : undefined;
  if (!said) return err.message;
  const sentence = said.charAt(0).toUpperCase() + said.slice(1);
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}
