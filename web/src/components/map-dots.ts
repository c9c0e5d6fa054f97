/**
 * The dots of the world map at a zoom: places close together on screen become one dot (supercluster), so the
 * map of 5,000 places draws a few hundred dots at first, and only what is in view. The map is drawn with
 * d3-geo's Natural Earth projection in a 960 × 500 frame; supercluster counts in Web Mercator tiles of 512
 * units, whose world is about as wide, so a d3-zoom scale k matches tile zoom log2(960 k / 512).
 */
import { geoNaturalEarth1 } from 'd3-geo';
import Supercluster from 'supercluster';

/** The map's frame (SVG units). */
export const MAP_WIDTH = 960;
export const MAP_HEIGHT = 500;
/** The most the map zooms in; at this zoom every place is its own dot. */
export const MAX_SCALE = 40;
/** How close two dots may come on screen (px) before they are one. */
const CLUSTER_PX = 14;
const TILE = 512;
/** Tile zoom at scale 1: log2(960 / 512). */
const ZOOM_AT_1 = Math.log2(MAP_WIDTH / TILE);
/** The last tile zoom that still groups: one past it, at MAX_SCALE, every place stands alone. */
const LAST_GROUPING_ZOOM = Math.floor(Math.log2(MAX_SCALE) + ZOOM_AT_1) - 1;

/** The projection the countries and the dots share. */
export const projection = geoNaturalEarth1().fitSize([MAP_WIDTH, MAP_HEIGHT], { type: 'Sphere' });

/** A place on the map: where, how many items, its name and where a click goes. */
export interface MapPlace {
  key: string;
  latitude: number;
  longitude: number;
  items: number;
  label: string;
  link: string;
}

/** One dot to draw: a place, or several places close together (`place` absent, `zoomTo` the scale that parts them). */
export interface MapDot {
  key: string;
  x: number;
  y: number;
  items: number;
  places: number;
  place?: MapPlace;
  zoomTo?: number;
}

/** A d3-zoom transform: scale and offset. */
export interface View {
  k: number;
  x: number;
  y: number;
}

interface Counts {
  items: number;
}

/** The places indexed for grouping at every zoom. */
export interface PlaceIndex {
  clusters: Supercluster<MapPlace & Counts, Counts>;
}

/**
 * Indexes the places once (a few ms for 5,000).
 * @example
 * const index = indexPlaces(places); dotsIn(index, { k: 1, x: 0, y: 0 });
 */
export function indexPlaces(places: MapPlace[]): PlaceIndex {
  const clusters = new Supercluster<MapPlace & Counts, Counts>({
    radius: CLUSTER_PX,
    extent: TILE,
    maxZoom: LAST_GROUPING_ZOOM,
    map: (p) => ({ items: p.items }),
    reduce: (sum, p) => {
      sum.items += p.items;
    },
  });
  clusters.load(places.map((p) => ({ type: 'Feature', geometry: { type: 'Point', coordinates: [p.longitude, p.latitude] }, properties: p })));
  return { clusters };
}

/** The d3-zoom scale at which tile zoom `z` is shown. */
function scaleOfZoom(z: number): number {
  return Math.min(MAX_SCALE, 2 ** (z - ZOOM_AT_1) * 1.001);
}

/**
 * The dots in view at a zoom, with a margin so a pan shows no gap before they are drawn again; `pxPerUnit`
 * is how many screen pixels a unit of the map's frame takes at scale 1 (its drawn width / 960).
 * @example
 * dotsIn(index, { k: 1, x: 0, y: 0 }); // [{ key: 'PT/Lisbon/Lisbon', x: 451, y: 150, items: 3, places: 1, place: … }, …]
 */
export function dotsIn(index: PlaceIndex, view: View, pxPerUnit = 1): MapDot[] {
  // Grouped by distance on screen: a map drawn 340 px wide (a phone) groups as if zoomed out.
  const zoom = Math.max(0, Math.floor(Math.log2(view.k * pxPerUnit) + ZOOM_AT_1 + 1e-9));
  const margin = 40 / view.k;
  const [left, top] = [-view.x / view.k - margin, -view.y / view.k - margin];
  const [right, bottom] = [(MAP_WIDTH - view.x) / view.k + margin, (MAP_HEIGHT - view.y) / view.k + margin];
  const dots: MapDot[] = [];
  for (const f of index.clusters.getClusters([-180, -90, 180, 90], zoom)) {
    const at = projection(f.geometry.coordinates as [number, number]);
    if (!at || at[0] < left || at[0] > right || at[1] < top || at[1] > bottom) continue;
    const p = f.properties;
    if ('cluster' in p && p.cluster) {
      const zoomTo = scaleOfZoom(index.clusters.getClusterExpansionZoom(p.cluster_id));
      dots.push({ key: `cluster:${zoom}:${p.cluster_id}`, x: at[0], y: at[1], items: p.items, places: p.point_count, zoomTo });
    } else {
      const place = p as MapPlace;
      dots.push({ key: place.key, x: at[0], y: at[1], items: place.items, places: 1, place });
    }
  }
  return dots;
}

/**
 * A dot's radius on screen (px): grows with its items, and stops growing so a busy city does not cover a country.
 * @example
 * dotRadius(1); // 5
 */
export function dotRadius(items: number): number {
  return Math.min(3 + 2 * Math.sqrt(items), 24);
}
