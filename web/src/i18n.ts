/**
 * The page's texts: English and German tables (i18n/en.ts, i18n/de.ts), the browser's language picks one,
 * the header switches it (kept in localStorage). Counts take their plural form from Intl.PluralRules.
 */
import { useEffect, useState } from 'preact/hooks';
import type { Lang } from '../../src/messages/index.js';
import { de } from './i18n/de.js';
import { type Dict, en } from './i18n/en.js';
import { type Plural, pluralForm } from './i18n/plural.js';

/** A text's name. */
export type TextKey = keyof Dict;
/** The names of texts that depend on a count (their first argument). */
export type CountKey = { [K in TextKey]: Dict[K] extends string ? never : K }[TextKey];
/** A text's arguments: a count first where the text depends on one. */
type TextArgs<K extends TextKey> = K extends CountKey ? [count: number, ...rest: (string | number)[]] : (string | number)[];

/** The languages the page speaks: those of the server's message tables (src/messages), the one `Lang`. */
export type { Lang };
const DICTS: Record<Lang, Dict> = { en, de };
const listeners = new Set<(l: Lang) => void>();

function initial(): Lang {
  const saved = localStorage.getItem('vidx.lang');
  if (saved === 'en' || saved === 'de') return saved;
  return navigator.languages.some((l) => l.toLowerCase().startsWith('de')) && !navigator.language.toLowerCase().startsWith('en') ? 'de' : 'en';
}

let current: Lang = initial();
document.documentElement.lang = current;

/**
 * A text in the current language; `{0}`, `{1}` … are replaced by the arguments. A text that depends on a
 * count takes the plural form of its first argument.
 * @example
 * t('results', 3); // '3 moments'
 * t('results', 1); // '1 moment'
 */
export function t<K extends TextKey>(key: K, ...args: TextArgs<K>): string {
  const entry = DICTS[current][key] as string | Plural | undefined;
  if (entry === undefined) throw new Error(`no text ${String(key)}`);
  const text = typeof entry === 'string' ? entry : pluralForm(entry, Number(args[0]), current);
  return text.replace(/\{(\d)\}/g, (_, i: string) => String(args[Number(i)] ?? ''));
}

/**
 * The page's language now (for requests: the server answers errors in it).
 * @example
 * headers['accept-language'] = lang();
 */
export function lang(): Lang {
  return current;
}

/**
 * Switches the language and redraws every component that uses `useLang`.
 * @example
 * setLang('de');
 */
export function setLang(lang: Lang): void {
  current = lang;
  localStorage.setItem('vidx.lang', lang);
  document.documentElement.lang = lang;
  for (const l of listeners) l(lang);
}

/**
 * The current language; the calling component redraws when it changes.
 * @example
 * const lang = useLang();
 */
export function useLang(): Lang {
  const [lang, set] = useState(current);
  useEffect(() => {
    listeners.add(set);
    return () => void listeners.delete(set);
  }, []);
  return lang;
}
