/**
 * An offline world map of where a collection's items were recorded: the countries of Natural Earth
 * (world-atlas's TopoJSON, drawn with d3-geo; no tile server, no network), each place a dot sized by its
 * number of items; zoom and pan with the wheel, a drag, a pinch or the buttons (d3-zoom). A dot links to the
 * grid of the items near it. Colours come from the page's theme, so it reads in dark mode too.
 */
import { geoNaturalEarth1, geoPath } from 'd3-geo';
import { select } from 'd3-selection';
import { zoom, zoomIdentity, type ZoomBehavior } from 'd3-zoom';
import type { FeatureCollection } from 'geojson';
import { useEffect, useMemo, useRef } from 'preact/hooks';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import world from 'world-atlas/countries-110m.json';
import { t } from '../i18n.js';

const WIDTH = 960;
const HEIGHT = 500;

/** A place on the map: where, how many items, its name and where a click goes. */
export interface MapPlace {
  key: string;
  latitude: number;
  longitude: number;
  items: number;
  label: string;
  link: string;
}

const projection = geoNaturalEarth1().fitSize([WIDTH, HEIGHT], { type: 'Sphere' });
const path = geoPath(projection);

/** The countries as SVG paths, made once: the shapes never change. */
function countryPaths(): string[] {
  const topology = world as unknown as Topology<{ countries: GeometryCollection }>;
  const countries = feature(topology, topology.objects.countries) as FeatureCollection;
  return countries.features.map((f) => path(f) ?? '');
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
  const countries = useMemo(countryPaths, []);
  useEffect(() => {
    if (!svg.current || !layer.current) return;
    const g = select(layer.current);
    const z = zoom<SVGSVGElement, unknown>()
      .scaleExtent([1, 40])
      .translateExtent([[0, 0], [WIDTH, HEIGHT]])
      .on('zoom', (e: { transform: { k: number; toString(): string } }) => {
        g.attr('transform', e.transform.toString());
        // Dots keep their size on screen as the map grows.
        g.style('--dot-scale', String(1 / e.transform.k));
      });
    select(svg.current).call(z);
    behaviour.current = z;
  }, []);
  const by = (factor: number) => svg.current && behaviour.current?.scaleBy(select(svg.current), factor);
  const reset = () => svg.current && behaviour.current?.transform(select(svg.current), zoomIdentity);
  return (
    <figure class="world-map stack tight" data-map>
      <div class="row map-tools">
        <button type="button" onClick={() => by(1.6)} aria-label={t('zoomIn')}>+</button>
        <button type="button" onClick={() => by(1 / 1.6)} aria-label={t('zoomOut')}>−</button>
        <button type="button" onClick={reset}>{t('zoomReset')}</button>
      </div>
      <svg ref={svg} viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={t('mapLabel', places.length)}>
        <g ref={layer}>
          <path class="sphere" d={path({ type: 'Sphere' }) ?? ''} />
          {countries.map((d, i) => <path key={i} class="country" d={d} />)}
          {places.map((p) => {
            const at = projection([p.longitude, p.latitude]);
            if (!at) return null;
            return (
              <a key={p.key} href={p.link} aria-label={`${p.label}: ${t('placeItems', p.items)}`} data-dot={p.key}>
                <circle class="dot" cx={at[0]} cy={at[1]} r={3 + 2 * Math.sqrt(p.items)} />
              </a>
            );
          })}
        </g>
      </svg>
      <figcaption class="muted small" data-map-credit>{t('mapCredit')}</figcaption>
    </figure>
  );
}
