import { describe, expect, it } from 'vitest';
import { dotRadius, dotsIn, indexPlaces, MAP_HEIGHT, MAP_WIDTH, type MapPlace, MAX_SCALE } from '../../web/src/components/map-dots.js';

/** `n` places spread over the land between 60° S and 70° N, the same every run. */
function placesOf(n: number): MapPlace[] {
  let seed = 7;
  const rand = () => {
    seed = (seed * 16807) % 2147483647;
    return seed / 2147483647;
  };
  return Array.from({ length: n }, (_, i) => ({
    key: `P${i}`, latitude: -60 + 130 * rand(), longitude: -180 + 360 * rand(), items: 1 + Math.floor(rand() * 30), label: `Place ${i}`, link: `#/c/big?near=${i}`,
  }));
}

const whole = { k: 1, x: 0, y: 0 };
const placesIn = (dots: { places: number }[]) => dots.reduce((n, d) => n + d.places, 0);

describe('the dots of the world map', () => {
  it('draws 5,000 places as far fewer dots that still account for every place and item', () => {
    const places = placesOf(5000);
    const dots = dotsIn(indexPlaces(places), whole);
    expect(dots.length).toBeLessThan(1500);
    expect(placesIn(dots)).toBe(5000);
    expect(dots.reduce((n, d) => n + d.items, 0)).toBe(places.reduce((n, p) => n + p.items, 0));
    const groups = dots.filter((d) => !d.place);
    expect(groups.length).toBeGreaterThan(0);
    for (const g of groups) expect(g.zoomTo).toBeGreaterThan(1);
  });

  it('keeps two places far apart as their own dots, linking to their items', () => {
    const lisbon = { key: 'PT/Lisbon', latitude: 38.72, longitude: -9.14, items: 3, label: 'Lisbon', link: '#/c/t?near=lisbon' };
    const berlin = { key: 'DE/Berlin', latitude: 52.52, longitude: 13.4, items: 1, label: 'Berlin', link: '#/c/t?near=berlin' };
    const dots = dotsIn(indexPlaces([lisbon, berlin]), whole);
    expect(dots.map((d) => d.place?.key).sort()).toEqual(['DE/Berlin', 'PT/Lisbon']);
    expect(dots.find((d) => d.place === lisbon)?.items).toBe(3);
  });

  it('groups places close on screen, and parts them at the scale a group names', () => {
    const lisbon = { key: 'PT/Lisbon', latitude: 38.72, longitude: -9.14, items: 3, label: 'Lisbon', link: '#l' };
    const porto = { key: 'PT/Porto', latitude: 41.16, longitude: -8.63, items: 2, label: 'Porto', link: '#p' };
    const index = indexPlaces([lisbon, porto]);
    const [group] = dotsIn(index, whole);
    expect(group).toMatchObject({ places: 2, items: 5 });
    expect(group!.place).toBeUndefined();
    // The view the map moves to when the group is clicked: centred on it at its scale.
    const k = group!.zoomTo!;
    const view = { k, x: MAP_WIDTH / 2 - group!.x * k, y: MAP_HEIGHT / 2 - group!.y * k };
    expect(dotsIn(index, view).map((d) => d.place?.key).sort()).toEqual(['PT/Lisbon', 'PT/Porto']);
  });

  it('draws only the dots in view when zoomed in, and every place alone at the closest zoom', () => {
    const places = placesOf(5000);
    const index = indexPlaces(places);
    const view = { k: MAX_SCALE, x: -MAP_WIDTH * MAX_SCALE / 2 + MAP_WIDTH / 2, y: -MAP_HEIGHT * MAX_SCALE / 2 + MAP_HEIGHT / 2 };
    const dots = dotsIn(index, view);
    expect(dots.length).toBeLessThan(100);
    expect(dots.every((d) => d.place !== undefined)).toBe(true);
    for (const d of dots) {
      const sx = d.x * view.k + view.x;
      const sy = d.y * view.k + view.y;
      expect(sx).toBeGreaterThan(-40);
      expect(sx).toBeLessThan(MAP_WIDTH + 40);
      expect(sy).toBeGreaterThan(-40);
      expect(sy).toBeLessThan(MAP_HEIGHT + 40);
    }
  });

  it('sizes a dot by its items, up to a limit', () => {
    expect(dotRadius(1)).toBe(5);
    expect(dotRadius(4)).toBe(7);
    expect(dotRadius(100_000)).toBe(24);
  });
});
