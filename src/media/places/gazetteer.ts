import KDBush from 'kdbush';
import { around, distance } from 'geokdbush';
import { fold } from '../../tools/fold.js';
import { countryAliases, countryCode, countryNames } from './countries.js';
import { NO_REGION, type GazetteerData } from './gazetteer-data.js';
import { regionFromGerman } from './local-names.js';
import type { Place } from './place.js';

export type { Place };

/** A place found by its coordinates, with the words that make its items findable. */
export interface PlaceMatch {
  place: Place;
  /** The city's names in Latin script (English, German, …), the district, the region, the country's names. */
  words: string[];
}

/** What a place name in a `near` filter stands for. */
export type NamedPlace =
  | { kind: 'city'; label: string; latitude: number; longitude: number }
  | { kind: 'region'; label: string; region: string; country_code: string }
  | { kind: 'country'; label: string; country_code: string };

/** A place further than this from every city has no place: open sea, or a gap in the data. */
const MAX_KM = 50;
/**
 * A district is named only within half its reach: districts tile a city, and a point 2 km from
 * Bogenhausen's centre is more likely in the old town next to it than in Bogenhausen.
 */
const DISTRICT_REACH = 0.5;
/** The nearest places weighed for each lookup. */
const CANDIDATES = 32;

/**
 * How far a place reaches, from its population: about 30 km for New York, 11 km for Munich, 1.4 km for a
 * town of 20,000 and half a kilometre for a village. A point belongs to the place it lies deepest in, so
 * Times Square is New York, not Weehawken across the river.
 */
const reachKm = (population: number): number => Math.max(0.5, 0.01 * Math.sqrt(population));

/**
 * Offline reverse geocoding over GeoNames' cities of 1,000 or more people: coordinates to city, region and
 * country in well under a millisecond, and place names (in English, German and other Latin-script
 * spellings) to a city, region or country for the `near` filter.
 * @example
 * const places = new Gazetteer(loadGazetteer(files));
 * places.nearest(38.7223, -9.1393)?.place; // { city: 'Lisbon', district: null, region: 'Lisbon', country: 'Portugal', country_code: 'PT' }
 * places.named('Lissabon'); // { kind: 'city', label: 'Lisbon, Portugal', latitude: 38.71, longitude: -9.13 }
 */
export class Gazetteer {
  private readonly index: KDBush;

  constructor(private readonly data: GazetteerData) {
    this.index = new KDBush(data.count, 64, Float32Array);
    for (let i = 0; i < data.count; i++) this.index.add(data.lon[i], data.lat[i]);
    this.index.finish();
  }

  /** The place at a point, or null when no city lies within 50 km (or the point is not on Earth). */
  nearest(latitude: number, longitude: number): PlaceMatch | null {
    if (!validPoint(latitude, longitude)) return null;
    const d = this.data;
    let city = -1, cityScore = Infinity, part = -1, partScore = DISTRICT_REACH;
    for (const i of around(this.index, longitude, latitude, CANDIDATES, MAX_KM)) {
      const km = distance(longitude, latitude, d.lon[i], d.lat[i]);
      const score = km / reachKm(d.population[i]);
      if (d.district[i]) {
        if (score <= partScore) [part, partScore] = [i, score];
      } else if (score < cityScore) {
        city = i;
        cityScore = score;
      }
    }
    if (city < 0) return null;
    return this.match(city, part >= 0 && d.country[part] === d.country[city] ? part : -1);
  }

  /**
   * A city, region or country by a name in any case, with or without accents: English and German country
   * names first ("Deutschland"), then the most populous city of that name in any Latin-script spelling
   * ("Lissabon", "Muenchen"), then a region in English or German ("Bavaria", "Bayern"). Null when nothing is
   * called that.
   */
  named(name: string): NamedPlace | null {
    const wanted = fold(name.trim()).replace(/\s+/g, ' ');
    if (!wanted || wanted.includes(',')) return null;
    const cc = countryCode(name.trim());
    if (cc) return { kind: 'country', label: countryNames(cc).en, country_code: cc };
    const city = this.mostPopulousCalled(wanted);
    if (city >= 0) {
      const d = this.data;
      return { kind: 'city', label: `${this.name(city)}, ${countryNames(this.countryOf(city)).en}`, latitude: d.lat[city], longitude: d.lon[city] };
    }
    const german = regionFromGerman(wanted);
    const r = this.data.regionNames.findIndex((n) => fold(n) === wanted || n === german?.region);
    if (r < 0) return null;
    const at = this.data.region.indexOf(r);
    const code = this.countryOf(at);
    return { kind: 'region', label: `${this.data.regionNames[r]}, ${countryNames(code).en}`, region: this.data.regionNames[r], country_code: code };
  }

  private mostPopulousCalled(folded: string): number {
    const d = this.data;
    const needle = `,${folded},`;
    let best = -1;
    for (let at = d.aliases.indexOf(needle); at >= 0; at = d.aliases.indexOf(needle, at + 1)) {
      const i = placeAt(d.aliasStart, at);
      if (!d.district[i] && (best < 0 || d.population[i] > d.population[best])) best = i;
    }
    return best;
  }

  private match(city: number, part: number): PlaceMatch {
    const d = this.data;
    const code = this.countryOf(city);
    const region = d.region[city] === NO_REGION ? null : d.regionNames[d.region[city]];
    const place: Place = { city: this.name(city), district: part >= 0 ? this.name(part) : null, region, country: countryNames(code).en, country_code: code };
    const cityNames = d.aliases.slice(d.aliasStart[city] + 1, d.aliasStart[city + 1] - 1).split(',');
    const words = [...cityNames, place.district, region, ...countryAliases(code)].filter((w): w is string => !!w);
    return { place, words: [...new Set(words)] };
  }

  private name(i: number): string {
    return this.data.names.slice(this.data.nameStart[i], this.data.nameStart[i + 1]);
  }

  private countryOf(i: number): string {
    return this.data.countryCodes[this.data.country[i]];
  }
}

/**
 * Whether coordinates can be where something was recorded: finite, on Earth, and not 0,0 (what a
 * camera without a fix writes, out in the Atlantic).
 * @example
 * validPoint(0, 0); // false
 */
export function validPoint(latitude: number, longitude: number): boolean {
  if (!Number.isFinite(latitude) || !Number.isFinite(longitude)) return false;
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return false;
  return !(latitude === 0 && longitude === 0);
}

/** The place whose record holds string offset `at` (binary search over the start offsets). */
function placeAt(start: Uint32Array, at: number): number {
  let lo = 0, hi = start.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (start[mid] <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
