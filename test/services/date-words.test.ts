import { describe, expect, it } from 'vitest';
import { dayBounds, daysSaid } from '../../src/services/search/date-words.js';
import { readQuery, type PlaceLookup } from '../../src/services/search/understand.js';

/** Sunday 29 November 2026, noon, on the server's calendar. */
const NOW = new Date(2026, 10, 29, 12);
const days = (q: string, now = NOW) => {
  const d = daysSaid(q, now);
  return d && [d.from, d.to, q.slice(d.start, d.end)];
};

describe('dates in the words of a search', () => {
  it('reads years, spans of years, months and days in English and German', () => {
    expect(days('Lisbon 2019')).toEqual(['2019-01-01', '2019-12-31', '2019']);
    expect(days('im Jahr 2019')).toEqual(['2019-01-01', '2019-12-31', 'im Jahr 2019']);
    expect(days('2019 bis 2021')).toEqual(['2019-01-01', '2021-12-31', '2019 bis 2021']);
    expect(days('from 2019 to 2021')).toEqual(['2019-01-01', '2021-12-31', 'from 2019 to 2021']);
    expect(days('May 2024')).toEqual(['2024-05-01', '2024-05-31', 'May 2024']);
    expect(days('im Mai 2024')).toEqual(['2024-05-01', '2024-05-31', 'Mai 2024']);
    expect(days('Februar 2024')).toEqual(['2024-02-01', '2024-02-29', 'Februar 2024']);
    expect(days('14. Juli 2019')).toEqual(['2019-07-14', '2019-07-14', '14. Juli 2019']);
    expect(days('2019-07-14 tram')).toEqual(['2019-07-14', '2019-07-14', '2019-07-14']);
  });

  it('reads seasons and holidays with a year or "last"/"this"', () => {
    expect(days('Wien im Sommer 2023')).toEqual(['2023-06-01', '2023-08-31', 'Sommer 2023']);
    expect(days('im Winter 2022')).toEqual(['2022-12-01', '2023-02-28', 'Winter 2022']);
    expect(days('Weihnachten 2022')).toEqual(['2022-12-24', '2022-12-26', 'Weihnachten 2022']);
    expect(days('Christmas 2022')).toEqual(['2022-12-24', '2022-12-26', 'Christmas 2022']);
    expect(days('Silvester 2020')).toEqual(['2020-12-31', '2020-12-31', 'Silvester 2020']);
    expect(days('last summer')).toEqual(['2026-06-01', '2026-08-31', 'last summer']);
    // In July the summer under way has not ended: last summer is the year before's.
    expect(days('last summer', new Date(2026, 6, 10))).toEqual(['2025-06-01', '2025-08-31', 'last summer']);
    expect(days('letzten Winter')).toEqual(['2025-12-01', '2026-02-28', 'letzten Winter']);
    expect(days('letzte Weihnachten')).toEqual(['2025-12-24', '2025-12-26', 'letzte Weihnachten']);
    expect(days('this summer')).toEqual(['2026-06-01', '2026-08-31', 'this summer']);
  });

  it('counts relative dates from now: last year, letztes Jahr, last week, gestern', () => {
    expect(days('last year')).toEqual(['2025-01-01', '2025-12-31', 'last year']);
    expect(days('letztes Jahr')).toEqual(['2025-01-01', '2025-12-31', 'letztes Jahr']);
    expect(days('last week')).toEqual(['2026-11-16', '2026-11-22', 'last week']);
    expect(days('gestern')).toEqual(['2026-11-28', '2026-11-28', 'gestern']);
  });

  it('leaves words that only look like dates: a bare month or season, a clock time, longer numbers', () => {
    for (const q of ['summer beach', 'march of the penguins', 'may', 'the 3 dogs at 5', 'now', 'zoom 12019', 'room 2019b', 'version 2019.5', 'tram']) expect(days(q), q).toBeNull();
    // Nothing was recorded after today: "Morgen" (morning, or tomorrow) and a year to come stay words.
    for (const q of ['guten Morgen', 'am Morgen', 'next week', 'Agenda 2030', 'the day after']) expect(days(q), q).toBeNull();
    expect(days('heute Morgen')).toEqual(['2026-11-29', '2026-11-29', 'heute Morgen']);
  });

  it('gives the days as the first and last millisecond in the server\'s time zone', () => {
    expect(dayBounds({ from: '2019-01-01', to: '2019-12-31' })).toEqual({ after: new Date(2019, 0, 1).toISOString(), before: new Date(2020, 0, 1, 0, 0, 0, -1).toISOString() });
  });
});

describe('places and words left', () => {
  const lisbon = { kind: 'point', latitude: 38.72, longitude: -9.14, km: 25 } as const;
  const places: PlaceLookup = {
    words: new Set(['lisbon', 'lissabon', 'portugal', 'rio', 'de', 'janeiro']),
    filterOf: async (name) => (['lisbon', 'lissabon'].includes(name.toLowerCase()) ? lisbon : name === 'Rio de Janeiro' ? { ...lisbon, latitude: -22.9 } : null),
  };

  it('reads a place of the collection, drops the words that tie it, keeps the rest', async () => {
    expect((await readQuery('Tram in Lissabon 2019', NOW, places))?.understood).toEqual({ place: 'Lissabon', from: '2019-01-01', to: '2019-12-31', words: 'Tram' });
    expect((await readQuery('Rio de Janeiro beach', NOW, places))).toMatchObject({ understood: { place: 'Rio de Janeiro', words: 'beach' }, near: { latitude: -22.9 } });
    // Portugal is among the words, but the collection's lookup has no filter for it here.
    expect(await readQuery('Portugal', NOW, places)).toBeNull();
    expect(await readQuery('tram', NOW, places)).toBeNull();
    // A quoted phrase is words as typed.
    expect(await readQuery('"Lisbon 2019" poster', NOW, places)).toBeNull();
    expect((await readQuery('"summer of love" 2019', NOW, places))?.understood).toEqual({ place: null, from: '2019-01-01', to: '2019-12-31', words: '"summer of love"' });
    expect((await readQuery('photos from 2019', NOW, null))?.understood).toEqual({ place: null, from: '2019-01-01', to: '2019-12-31', words: 'photos' });
  });
});
