import countries from 'i18n-iso-countries';
import de from 'i18n-iso-countries/langs/de.json' with { type: 'json' };
import en from 'i18n-iso-countries/langs/en.json' with { type: 'json' };
import type { Lang } from '../../messages/index.js';

// Only the two languages vidx speaks: the package's Node entry would register about 80.
countries.registerLocale(en);
countries.registerLocale(de);

/** A country's names in the languages vidx speaks. */
export interface CountryNames {
  en: string;
  de: string;
}

/**
 * A country's English and German names by its ISO 3166-1 alpha-2 code (as GeoNames gives it); the code
 * itself when the list does not know it (Kosovo's `XK`).
 * @example
 * countryNames('DE'); // { en: 'Germany', de: 'Deutschland' }
 */
export function countryNames(code: string): CountryNames {
  return { en: countries.getName(code, 'en') ?? code, de: countries.getName(code, 'de') ?? code };
}

/**
 * Every name a country goes by in English and German, official and short ("United States of America",
 * "USA"): the words that make an item findable by its country.
 * @example
 * countryAliases('US'); // ['United States of America', 'United States', 'USA', 'Vereinigte Staaten von Amerika', …]
 */
export function countryAliases(code: string): string[] {
  const all = (lang: Lang) => [countries.getName(code, lang, { select: 'all' }) ?? []].flat();
  // "US" and "U.S." would be the English word "us"; "USA" stays.
  return [...new Set([...all('en'), ...all('de')])].filter((n) => n.length >= 3 && !n.includes('.'));
}

/**
 * The code of a country named in English or German (any case), or null.
 * @example
 * countryCode('deutschland'); // 'DE'
 */
export function countryCode(name: string): string | null {
  return countries.getAlpha2Code(name, 'en') ?? countries.getAlpha2Code(name, 'de') ?? null;
}
