/**
 * An offline world map of where a collection's items were recorded: the countries of Natural Earth
 * (world-atlas's TopoJSON, drawn with d3-geo; no tile server, no network), each place a dot sized by its
 * number of items; places close together on screen are one dot that zooms in when clicked (map-dots.ts).
 * Zoom and pan with the wheel, a drag, a pinch or the buttons (d3-zoom). A place's dot links to the grid of
 * the items near it. Colours come from the page's theme, so it reads in dark mode too.
 */
import { geoPath } from 'd3-geo';
import { select } from 'd3-selection';
import { zoom, zoomIdentity, type ZoomBehavior } from 'd3-zoom';
import type { FeatureCollection } from 'geojson';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import world from 'world-atlas/countries-110m.json';
import { t } from '../i18n.js';
import { dotRadius, dotsIn, indexPlaces, MAP_HEIGHT, MAP_WIDTH, type MapDot, type MapPlace, MAX_SCALE, projection, type View } from './map-dots.js';

export type { MapPlace } from './map-dots.js';

const path = geoPath(projection);

/** The countries as SVG paths, made once: the shapes never change. */
function countryPaths(): string[] {
  const topology = world as unknown as Topology<{ countries: GeometryCollection }>;
  const countries = feature(topology, topology.objects.countries) as FeatureCollection;
  return countries.features.map((f) => path(f) ?? '');
}

let countriesOnce: string[] | null = null;

/** One dot: a place links to its items; a group of places zooms in on itself. */
function Dot({ dot, zoomTo }: { dot: MapDot; zoomTo: (d: MapDot) => void }) {
  // A group is drawn big enough to carry its number of places.
  const circle = <circle class="dot" cx={dot.x} cy={dot.y} r={dot.place ? dotRadius(dot.items) : Math.max(9, dotRadius(dot.items))} />;
  if (dot.place) {
    return <a href={dot.place.link} aria-label={`${dot.place.label}: ${t('placeItems', dot.items)}`} data-dot={dot.key}>{circle}</a>;
  }
  const open = () => zoomTo(dot);
  const key = (e: KeyboardEvent) => {
    if (e.key !== 'Enter' && e.key !== ' ') return;
    e.preventDefault();
    open();
  };
  return (
    // biome-ignore lint/a11y/useSemanticElements: inside an SVG there is no <button>; the group is one, with a role, focus and keys.
    <g class="group" role="button" tabIndex={0} data-cluster={dot.places} aria-label={t('mapGroup', dot.places, dot.items)} onClick={open} onKeyDown={key}>
      {circle}
      <text x={dot.x} y={dot.y} class="dot-count">{dot.places}</text>
    </g>
  );
}

/**
 * The map.
 * @example
 * <WorldMap places={[{ key: 'PT/Lisbon', latitude: 38.72, longitude: -9.14, items: 3, label: 'Lisbon', link: '#/c/trips?near=…' }]} />
 */
export function WorldMap({ places }: { places: MapPlace[] }) {
  const svg = useRef<SVGSVGElement>(null);
  const layer = useRef<SVGGElement>(null);
  const behaviour = useRef<ZoomBehavior<SVGSVGElement, unknown> | null>(null);
  countriesOnce ??= countryPaths();
  const index = useMemo(() => indexPlaces(places), [places]);
  const [view, setView] = useState<View>({ k: 1, x: 0, y: 0 });
  // The frame's units per screen pixel: dots keep their size on screen at 360 px as at desktop width.
  const [pxPerUnit, setPxPerUnit] = useState(1);
  const pxPerUnitNow = useRef(1);
  pxPerUnitNow.current = pxPerUnit;
  const dots = useMemo(() => dotsIn(index, view, pxPerUnit), [index, view, pxPerUnit]);
  useEffect(() => {
    const el = svg.current;
    if (!el) return;
    const measure = () => el.clientWidth > 0 && setPxPerUnit(el.clientWidth / MAP_WIDTH);
    measure();
    const seen = new ResizeObserver(measure);
    seen.observe(el);
    return () => seen.disconnect();
  }, []);
  useEffect(() => {
    layer.current?.style.setProperty('--dot-scale', String(1 / (view.k * pxPerUnit)));
  }, [pxPerUnit, view.k]);
  useEffect(() => {
    if (!svg.current || !layer.current) return;
    const g = select(layer.current);
    const z = zoom<SVGSVGElement, unknown>()
      .scaleExtent([1, MAX_SCALE])
      .translateExtent([[0, 0], [MAP_WIDTH, MAP_HEIGHT]])
      .on('zoom', (e: { transform: View & { toString(): string } }) => {
        g.attr('transform', e.transform.toString());
        // Dots keep their size on screen as the map grows.
        g.style('--dot-scale', String(1 / (e.transform.k * pxPerUnitNow.current)));
      })
      // The dots are grouped again once a zoom or pan ends, not on every frame of it.
      .on('end', (e: { transform: View }) => setView({ k: e.transform.k, x: e.transform.x, y: e.transform.y }));
    select(svg.current).call(z);
    behaviour.current = z;
  }, []);
  const by = (factor: number) => svg.current && behaviour.current?.scaleBy(select(svg.current), factor);
  const reset = () => svg.current && behaviour.current?.transform(select(svg.current), zoomIdentity);
  const zoomTo = (d: MapDot) => {
    if (!svg.current || !behaviour.current || !d.zoomTo) return;
    behaviour.current.transform(select(svg.current), zoomIdentity.translate(MAP_WIDTH / 2, MAP_HEIGHT / 2).scale(d.zoomTo).translate(-d.x, -d.y));
  };
  const shown = dots.reduce((n, d) => n + d.places, 0);
  return (
    <figure class="world-map stack tight" data-map data-drawn={shown}>
      <div class="row map-tools">
        <button type="button" onClick={() => by(1.6)} aria-label={t('zoomIn')}>+</button>
        <button type="button" onClick={() => by(1 / 1.6)} aria-label={t('zoomOut')}>−</button>
        <button type="button" onClick={reset}>{t('zoomReset')}</button>
      </div>
      <svg ref={svg} viewBox={`0 0 ${MAP_WIDTH} ${MAP_HEIGHT}`} role="img" aria-label={t('mapLabel', places.length)}>
        <g ref={layer}>
          <path class="sphere" d={path({ type: 'Sphere' }) ?? ''} />
          {countriesOnce.map((d, i) => <path key={i} class="country" d={d} />)}
          {dots.map((d) => <Dot key={d.key} dot={d} zoomTo={zoomTo} />)}
        </g>
      </svg>
      <figcaption class="muted small" data-map-credit>{t('mapCredit')}</figcaption>
    </figure>
  );
}
