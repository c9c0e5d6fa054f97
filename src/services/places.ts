import type { Logger } from '../logger.js';
import { Gazetteer, validPoint, type NamedPlace, type Place } from '../media/places/gazetteer.js';
import { loadGazetteer, type GazetteerFiles } from '../media/places/gazetteer-data.js';
import { placeIn } from '../media/places/local-names.js';
import type { PlaceCount } from '../store/items.js';
import type { NearFilter } from '../store/item-filter.js';
import type { ItemRepository } from '../store/items.js';
import { msg, type Lang } from '../messages/index.js';
import { fieldProblem } from './errors.js';
import { inTransaction, type Db } from '../store/connection.js';
import { LRUMap } from 'mnemonist';

export type { NamedPlace, Place };
export { placeIn };

/**
 * Something that names a place (an item's view, a search result) with the place named in `lang`.
 * @example
 * withPlaceIn(item, 'de').place?.city; // 'München'
 */
export function withPlaceIn<T extends { place: Place | null }>(value: T, lang: Lang): T {
  return value.place && lang !== 'en' ? { ...value, place: placeIn(value.place, lang) } : value;
}

/**
 * A place of a collection's places list named in `lang`.
 * @example
 * placeCountIn({ city: 'Vienna', region: 'Vienna', country: 'Austria', country_code: 'AT', … }, 'de'); // { city: 'Wien', region: 'Wien', country: 'Österreich', … }
 */
export function placeCountIn(p: PlaceCount, lang: Lang): PlaceCount {
  if (lang === 'en') return p;
  const named = placeIn({ city: p.city, district: null, region: p.region, country: p.country, country_code: p.country_code }, lang);
  return { ...p, city: named.city, region: named.region, country: named.country };
}

/** What an item stores of its place: the place as JSON (null when its point has none) and its words. */
export interface StoredPlace {
  place: string | null;
  place_words: string;
}

/** The radius around a named city or a point when the caller gives none (km). */
export const DEFAULT_NEAR_KM = 25;

const POINT = /^\s*([+-]?\d{1,3}(?:\.\d+)?)\s*,\s*([+-]?\d{1,3}(?:\.\d+)?)\s*$/;

/**
 * `latitude,longitude` as a `near` value gives it, or null when the text is not a pair of numbers; a pair
 * that is no point on Earth is a 422 naming `near`.
 * @example
 * parsePoint('38.72,-9.14'); // { latitude: 38.72, longitude: -9.14 }
 */
export function parsePoint(text: string): { latitude: number; longitude: number } | null {
  const m = POINT.exec(text);
  if (!m) return null;
  const latitude = Number(m[1]), longitude = Number(m[2]);
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) {
    throw fieldProblem('invalid', 'near', msg('near_off_earth'));
  }
  return { latitude, longitude };
}

/** Place names whose look-up is kept: the gazetteer does not change while vidx runs, and one look-up scans all its names. */
const NAMES_KEPT = 512;

/** Items looked up per transaction when filling in places of items stored before places existed. */
const BACKFILL_PAGE = 200;

/**
 * Places of items, offline: looks up where an item with GPS was recorded in the gazetteer that ships
 * with vidx (GeoNames, see docs/places.md), resolves place names for the `near` filter, and fills in
 * places of items stored before places existed. The gazetteer loads once, in the background at start.
 * @example
 * const places = new PlaceService(files, store.items, db, (c, i) => searchIndex.retextItem(c, i), log);
 * await places.locate(38.7223, -9.1393); // { place: '{"city":"Lisbon",…}', place_words: 'lisbon lissabon lisboa … Portugal' }
 */
export class PlaceService {
  private loading: Promise<Gazetteer> | null = null;
  /** What names were found to be, by name in lower case (a search's words ask for the same few names again and again). */
  private readonly names = new LRUMap<string, NamedPlace | null>(NAMES_KEPT);

  constructor(
    private readonly files: GazetteerFiles,
    private readonly items: Pick<ItemRepository, 'placesPending' | 'setPlace'>,
    private readonly db: Db,
    /** Rewrites an item's searchable text (its place words are part of it). */
    private readonly retextItem: (collectionPk: number, itemPk: number) => void,
    private readonly log: Logger,
  ) {}

  /** The loaded gazetteer (the first call starts loading it). */
  gazetteer(): Promise<Gazetteer> {
    this.loading ??= loadGazetteer(this.files).then((data) => new Gazetteer(data));
    return this.loading;
  }

  /** The place at a point as an item stores it; null when the item has no usable point (none, 0,0, off Earth). */
  async locate(latitude: number | null | undefined, longitude: number | null | undefined): Promise<StoredPlace | null> {
    if (latitude == null || longitude == null || !validPoint(latitude, longitude)) return null;
    const found = (await this.gazetteer()).nearest(latitude, longitude);
    return { place: found ? JSON.stringify(found.place) : null, place_words: found ? found.words.join(' ') : '' };
  }

  /** A city, region or country by name (see Gazetteer.named). */
  async named(name: string): Promise<NamedPlace | null> {
    const key = name.trim().toLowerCase();
    const kept = this.names.get(key);
    if (kept !== undefined) return kept;
    const found = (await this.gazetteer()).named(name);
    this.names.set(key, found);
    return found;
  }

  /**
   * The `near` filter of a search or an items list: a point or a named city with a radius, or a named
   * region or country as a whole. A name nothing is called is a 422 naming `near`.
   * @example
   * await places.nearFilter('Lissabon'); // { kind: 'point', latitude: 38.71, longitude: -9.13, km: 25 }
   * await places.nearFilter('Portugal'); // { kind: 'area', country_code: 'PT', region: null }
   */
  async nearFilter(near: string, km: number = DEFAULT_NEAR_KM): Promise<NearFilter> {
    const point = parsePoint(near);
    if (point) return { kind: 'point', ...point, km };
    const named = await this.named(near);
    if (!named) throw fieldProblem('invalid', 'near', msg('near_unknown', { name: near }));
    if (named.kind === 'city') return { kind: 'point', latitude: named.latitude, longitude: named.longitude, km };
    return { kind: 'area', country_code: named.country_code, region: named.kind === 'region' ? named.region : null };
  }

  /**
   * Looks up the places of items stored before places existed, a page per transaction, and rewrites their
   * searchable text. Runs once after start; returns how many items it looked at.
   */
  async backfill(): Promise<number> {
    let done = 0;
    for (;;) {
      const page = this.items.placesPending(BACKFILL_PAGE);
      if (page.length === 0) break;
      const found = await Promise.all(page.map((r) => this.locate(r.latitude, r.longitude)));
      inTransaction(this.db, () => {
        page.forEach((r, i) => {
          const p = found[i];
          this.items.setPlace(r.pk, p?.place ?? null, p?.place_words ?? '');
          if (p?.place) this.retextItem(r.collection_pk, r.pk);
        });
      });
      done += page.length;
    }
    if (done > 0) this.log(`places: looked up ${done} items stored before places existed`);
    return done;
  }
}
