import { beforeAll, describe, expect, it } from 'vitest';
import { Gazetteer, validPoint } from '../../src/media/places/gazetteer.js';
import { gazetteerFiles, loadGazetteer } from '../../src/media/places/gazetteer-data.js';
import { countryAliases } from '../../src/media/places/countries.js';
import { placeIn } from '../../src/media/places/local-names.js';

describe('the offline gazetteer (GeoNames cities of 1,000 or more)', () => {
  let places: Gazetteer;
  beforeAll(async () => {
    places = new Gazetteer(await loadGazetteer(gazetteerFiles(undefined)));
  }, 60_000);

  it('names the city a point lies in, weighing how far each place reaches', () => {
    expect(places.nearest(38.7223, -9.1393)?.place).toEqual({ city: 'Lisbon', district: null, region: 'Lisbon', country: 'Portugal', country_code: 'PT' });
    // Times Square: New York (8 million people), not Weehawken across the river, which is nearer.
    expect(places.nearest(40.758, -73.9855)?.place).toMatchObject({ city: 'New York City', district: "Hell's Kitchen", region: 'New York', country_code: 'US' });
    expect(places.nearest(52.4986, 13.403)?.place).toMatchObject({ city: 'Berlin', district: 'Kreuzberg' });
  });

  it('gives the names a person would search for, and no scraps', () => {
    const words = places.nearest(48.137, 11.575)!.words;
    expect(words).toEqual(expect.arrayContaining(['munich', 'munchen', 'muenchen', 'Bavaria', 'Germany', 'Deutschland']));
    // Romanisations of other scripts (lower case in GeoNames), airport codes and two-letter words stay out.
    expect(words).not.toContain('mwnykh');
    expect(words).not.toContain('muc');
    expect(words.every((w) => w.length >= 3)).toBe(true);
    expect(countryAliases('US')).toEqual(expect.arrayContaining(['USA', 'United States', 'Vereinigte Staaten']));
    expect(countryAliases('US')).not.toContain('US');
  });

  it('has no place for the open sea, 0,0 or points off Earth', () => {
    expect(places.nearest(45, -30)).toBeNull();
    expect(places.nearest(0, 0)).toBeNull();
    expect(places.nearest(91, 10)).toBeNull();
    expect(places.nearest(Number.NaN, 10)).toBeNull();
    expect([validPoint(0, 0), validPoint(0, 0.5), validPoint(-90, 180), validPoint(10, -181)]).toEqual([false, true, true, false]);
  });

  it('resolves names in English, German and without umlauts, the most populous first', () => {
    expect(places.named('Lissabon')).toMatchObject({ kind: 'city', label: 'Lisbon, Portugal' });
    expect(places.named('Lisbon')).toMatchObject({ kind: 'city', label: 'Lisbon, Portugal' });
    expect(places.named('muenchen')).toMatchObject({ kind: 'city', label: 'Munich, Germany' });
    expect(places.named('MÜNCHEN')).toMatchObject({ kind: 'city', label: 'Munich, Germany' });
    expect(places.named('Deutschland')).toEqual({ kind: 'country', label: 'Germany', country_code: 'DE' });
    expect(places.named('Bavaria')).toMatchObject({ kind: 'region', region: 'Bavaria', country_code: 'DE' });
    expect(places.named('Bayern')).toMatchObject({ kind: 'region', region: 'Bavaria', country_code: 'DE' });
    expect(places.named('Niederösterreich')).toMatchObject({ kind: 'region', region: 'Lower Austria', country_code: 'AT' });
    expect(places.named('Qwzxville')).toBeNull();
    expect(places.named('  ')).toBeNull();
  });

  it('names a place in German where GeoNames has German names: city, district, region, country', () => {
    const de = (lat: number, lon: number) => placeIn(places.nearest(lat, lon)!.place, 'de');
    expect(de(48.137, 11.575)).toMatchObject({ city: 'München', region: 'Bayern', country: 'Deutschland' });
    expect(de(48.2085, 16.3721)).toMatchObject({ city: 'Wien', region: 'Wien', country: 'Österreich' });
    expect(de(38.7223, -9.1393)).toMatchObject({ city: 'Lissabon', region: 'Lissabon', country: 'Portugal' });
    // Berlin is Berlin in both; a name GeoNames has no German for stays as it is.
    expect(de(52.4986, 13.403)).toMatchObject({ city: 'Berlin', district: 'Kreuzberg', country: 'Deutschland' });
    const english = places.nearest(48.137, 11.575)!.place;
    expect(placeIn(english, 'en')).toBe(english);
  });
});
