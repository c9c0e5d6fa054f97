/**
 * Where a collection's photos and videos were recorded (`#/c/{id}/places`, GET …/places): an offline world
 * map with a dot per place, then each place with its number of items, linking to the grid of the items near
 * it; the credits of the map and of GeoNames below.
 */
import { useCollections } from '../collection-names.js';
import { useSession } from '../context.js';
import { placeText } from '../format.js';
import { lang, t } from '../i18n.js';
import { useLoad } from '../load.js';
import { useMemo, useState } from 'preact/hooks';
import { href } from '../router.js';
import { WorldMap } from '../components/WorldMap.js';

/** The radius of a place's link (km): a city and its edges, as the server's `near` default. */
const PLACE_KM = 25;
/** Places listed before "show all": the list of a big archive is long, and the map shows them all. */
const LISTED = 100;

/**
 * The places view of a collection.
 * @example
 * <Places collection="trips" pub={false} />
 */
export function Places({ collection, pub }: { collection: string; pub: boolean }) {
  const { api } = useSession();
  const { name } = useCollections(api);
  const found = useLoad(() => api.places(collection, pub), [api, collection, pub]);
  const places = found.value?.places ?? [];
  const [all, setAll] = useState(false);
  const language = lang();
  const mapPlaces = useMemo(() => places.map((p) => {
    const label = placeText(p, language);
    const near = `${p.latitude.toFixed(4)},${p.longitude.toFixed(4)}`;
    return { key: `${p.country_code}/${p.region ?? ''}/${p.city}`, latitude: p.latitude, longitude: p.longitude, items: p.items, label, link: href('c', collection, { near, km: PLACE_KM, place: label, ...(pub ? { pub: 1 } : {}) }) };
  }), [places, collection, pub, language]);
  const listed = all ? mapPlaces : mapPlaces.slice(0, LISTED);
  return (
    <div class="stack">
      <h2 id="places-h" tabIndex={-1}>{t('places')} · <a href={href('c', collection, pub ? { pub: 1 } : {})}>{name(collection)}</a></h2>
      {found.error && <p class="error" role="alert">{t('error', found.error.message)}</p>}
      {found.loading && <p class="muted" role="status">{t('loading')}</p>}
      {found.value && !places.length && <p class="empty" data-empty>{t('noPlaces')}</p>}
      {places.length > 0 && (
        <WorldMap places={mapPlaces} />
      )}
      {places.length > 0 && (
        <ul class="places" aria-labelledby="places-h">
          {listed.map((m, i) => {
            const p = places[i]!;
            return (
              <li key={m.key} data-place={p.city}>
                <a href={m.link}>{m.label}</a>
                {p.region && p.region !== p.city && <span class="muted"> · {p.region}</span>}
                <span class="place-count">{t('placeItems', p.items)}</span>
              </li>
            );
          })}
        </ul>
      )}
      {listed.length < places.length && <button type="button" data-more-places onClick={() => setAll(true)}>{t('placesMore', places.length)}</button>}
      {found.value && <p class="muted small" data-credit>{t('placesCredit')} <a href="https://www.geonames.org/" rel="noreferrer">geonames.org</a></p>}
    </div>
  );
}
