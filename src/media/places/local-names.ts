/**
 * Place names in the language a caller reads: GeoNames' German names of cities and regions where they
 * differ from the English ones the gazetteer stores ("München", "Wien", "Bayern"; names-de.ts, made by
 * scripts/make-place-names-de.ts), the country's name from i18n-iso-countries. A name GeoNames has no
 * German for stays as stored.
 */
import { fold } from '../../tools/fold.js';
import { countryNames } from './countries.js';
import type { Place } from './place.js';
import { CITIES_DE as CITIES, REGIONS_DE as REGIONS } from './names-de.js';
import type { Lang } from '../../messages/index.js';

/** English region names by their folded German names, by country ("bayern" → "Bavaria" in DE). */
let regionsByGerman: Map<string, { country_code: string; region: string }> | null = null;

/**
 * The English name of a region named in German, with its country; null when GeoNames has no such German name.
 * @example
 * regionFromGerman('bayern'); // { country_code: 'DE', region: 'Bavaria' }
 */
export function regionFromGerman(folded: string): { country_code: string; region: string } | null {
  if (!regionsByGerman) {
    regionsByGerman = new Map();
    for (const [cc, names] of Object.entries(REGIONS)) for (const [en, de] of Object.entries(names ?? {})) regionsByGerman.set(fold(de), { country_code: cc, region: en });
  }
  return regionsByGerman.get(folded) ?? null;
}

/**
 * A stored place (English names) as a reader of `lang` names it.
 * @example
 * placeIn({ city: 'Munich', district: null, region: 'Bavaria', country: 'Germany', country_code: 'DE' }, 'de');
 * // { city: 'München', district: null, region: 'Bayern', country: 'Deutschland', country_code: 'DE' }
 */
export function placeIn(place: Place, lang: Lang): Place {
  if (lang === 'en') return place;
  const cc = place.country_code;
  const city = (name: string) => CITIES[cc]?.[name] ?? name;
  return {
    ...place,
    city: city(place.city),
    district: place.district === null ? null : city(place.district),
    region: place.region === null ? null : (REGIONS[cc]?.[place.region] ?? place.region),
    country: countryNames(cc).de,
  };
}
