import { describe, expect, it } from 'vitest';
import type { DatedItem } from '../../src/store/events.js';
import { groupEvents } from '../../src/services/timeline/grouping.js';

const place = (city: string, country_code = 'DE') => JSON.stringify({ city, district: null, region: null, country: country_code, country_code });
let pk = 0;
const item = (at: string, city: string | null): DatedItem => ({ pk: ++pk, media_id: `m${pk}`, type: 'image', captured_at: new Date(at).toISOString(), city: city ? `DE:${city}` : null, place: city ? place(city) : null });
/** Days are read in UTC here, so the test does not depend on the machine's zone. */
const utcDay = (iso: string) => iso.slice(0, 10);
const shape = (items: DatedItem[]) => groupEvents(items, utcDay).map((g) => g.items.map((i) => i.media_id).join(' '));

describe('events from items', () => {
  it('keeps a day at home together and splits the next day', () => {
    pk = 0;
    expect(shape([item('2023-03-04T08:00Z', 'Berlin'), item('2023-03-04T20:00Z', 'Berlin'), item('2023-03-05T09:00Z', 'Berlin')])).toEqual(['m1 m2', 'm3']);
  });

  it('keeps a party across midnight together', () => {
    pk = 0;
    expect(shape([item('2023-12-31T22:30Z', 'Berlin'), item('2024-01-01T00:40Z', 'Berlin'), item('2024-01-01T14:00Z', 'Berlin')])).toEqual(['m1 m2', 'm3']);
  });

  it('makes a trip of days away, a day without photos included, and starts again at home', () => {
    pk = 0;
    const items = [
      item('2024-05-01T10:00Z', 'Berlin'), item('2024-05-01T12:00Z', 'Berlin'),
      item('2024-05-03T09:00Z', 'Lisbon'), item('2024-05-05T19:00Z', 'Lisbon'), item('2024-05-05T21:00Z', null),
      item('2024-05-06T10:00Z', 'Berlin'),
    ];
    expect(shape(items)).toEqual(['m1 m2', 'm3 m4 m5', 'm6']);
  });

  it('splits an outing away that follows a morning at home on the same day', () => {
    pk = 0;
    expect(shape([item('2024-06-01T08:00Z', 'Berlin'), item('2024-06-01T08:30Z', 'Berlin'), item('2024-06-01T15:00Z', 'Potsdam'), item('2024-06-01T16:00Z', 'Berlin')])).toEqual(['m1 m2', 'm3', 'm4']);
  });
});
