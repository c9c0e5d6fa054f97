/**
 * Dates typed the way the page's language writes them, kept as ISO days (`2024-12-31`): 31.12.2024 in
 * German, 31/12/2024 in English (as the page's other dates, day first), and 2024-12-31 in either. A browser's
 * own date field follows the browser's locale instead (a German page showed mm/dd/yyyy), so the search
 * filters use a text field with these.
 */
import type { Lang } from './i18n.js';

/**
 * How a date is written in `lang`, for a placeholder.
 * @example
 * datePattern('de'); // 'TT.MM.JJJJ'
 */
export function datePattern(lang: Lang): string {
  return lang === 'de' ? 'TT.MM.JJJJ' : 'dd/mm/yyyy';
}

/**
 * An ISO day as `lang` writes it; '' stays ''.
 * @example
 * showDay('2024-05-01', 'de'); // '01.05.2024'
 */
export function showDay(iso: string, lang: Lang): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!m) return iso;
  const [, y, mo, d] = m;
  return lang === 'de' ? `${d}.${mo}.${y}` : `${d}/${mo}/${y}`;
}

/**
 * The ISO day of what was typed: '' for nothing, null for no real date.
 * @example
 * readDay('1.5.2024', 'de'); // '2024-05-01'
 * readDay('31.02.2024', 'de'); // null
 */
export function readDay(text: string, lang: Lang): string | null {
  const s = text.trim();
  if (!s) return '';
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(s);
  const local = (lang === 'de' ? /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/ : /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/).exec(s);
  const [y, mo, d] = iso ? [iso[1], iso[2], iso[3]] : local ? [local[3], local[2], local[1]] : [];
  if (!y || !mo || !d) return null;
  const day = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  if (day.getUTCFullYear() !== Number(y) || day.getUTCMonth() !== Number(mo) - 1 || day.getUTCDate() !== Number(d)) return null;
  return day.toISOString().slice(0, 10);
}
