/**
 * Hash routes, so a deep link (`#/c/trips/play/clip?t=42`) works from the one page the server serves:
 * `#/` collections, `#/c/{id}` items, `#/c/{id}/search?q=`, `#/search?q=` (all collections), `#/c/{id}/explore`,
 * `#/c/{id}/play/{media_id}?t=`, `#/c/{id}/duplicates`, `#/c/{id}/places` (and `#/c/{id}?near=&place=`, items near one), `#/c/{id}/time` (events, the timeline; `?event=` one event;
 * `#/c/{id}?after=&before=&span=`, items recorded in a month), `#/add`, `#/tasks`, `#/models`. `pub=1` marks another owner's
 * public collection; a search's `img=` names a picture held in the tab, `like=&at=` a moment to find more like.
 */
import { useEffect, useState } from 'preact/hooks';

/** A parsed route. */
export interface Route {
  view: 'collections' | 'items' | 'search' | 'explore' | 'people' | 'play' | 'duplicates' | 'places' | 'time' | 'add' | 'tasks' | 'models';
  /** A person of the collection (`#/c/{id}/people/{person_id}`). */
  personId?: string;
  collection?: string;
  mediaId?: string;
  params: URLSearchParams;
}

/**
 * Parses a location hash.
 * @example
 * parseRoute('#/c/trips/play/clip?t=42'); // { view: 'play', collection: 'trips', mediaId: 'clip', params: t=42 }
 */
export function parseRoute(hash: string): Route {
  const [path, query = ''] = hash.replace(/^#/, '').split('?', 2);
  const params = new URLSearchParams(query);
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  if (parts[0] === 'add') return { view: 'add', params };
  if (parts[0] === 'tasks') return { view: 'tasks', params };
  if (parts[0] === 'models') return { view: 'models', params };
  // Search without a collection: every collection of the caller.
  if (parts[0] === 'search') return { view: 'search', params };
  if (parts[0] === 'c' && parts[1]) {
    const collection = parts[1];
    if (parts[2] === 'search') return { view: 'search', collection, params };
    if (parts[2] === 'explore') return { view: 'explore', collection, params };
    if (parts[2] === 'duplicates') return { view: 'duplicates', collection, params };
    if (parts[2] === 'places') return { view: 'places', collection, params };
    if (parts[2] === 'time') return { view: 'time', collection, params };
    if (parts[2] === 'people') return { view: 'people', collection, params, ...(parts[3] ? { personId: parts[3] } : {}) };
    if (parts[2] === 'play' && parts[3]) return { view: 'play', collection, mediaId: parts[3], params };
    return { view: 'items', collection, params };
  }
  return { view: 'collections', params };
}

/**
 * Builds a hash link.
 * @example
 * href('c', 'trips', 'play', 'clip', { t: 42 }); // '#/c/trips/play/clip?t=42'
 */
export function href(...parts: (string | Record<string, string | number | boolean | undefined>)[]): string {
  const query = parts.find((p): p is Record<string, string | number | boolean | undefined> => typeof p === 'object');
  const path = parts.filter((p): p is string => typeof p === 'string').map(encodeURIComponent).join('/');
  const qs = query ? new URLSearchParams(Object.entries(query).filter(([, v]) => v !== undefined && v !== false).map(([k, v]) => [k, String(v)])).toString() : '';
  return `#/${path}${qs ? `?${qs}` : ''}`;
}

/**
 * Goes to a hash link.
 * @example
 * go(href('tasks'));
 */
export function go(link: string): void {
  location.hash = link.slice(1);
}

/**
 * The current route; redraws on navigation.
 * @example
 * const route = useRoute();
 */
export function useRoute(): Route {
  return parseRoute(useHash());
}

/** The location hash, redrawing the component on each navigation. */
function useHash(): string {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const on = () => setHash(location.hash);
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  return hash;
}

/**
 * The token of a share link's route (`#/s/<token>`), which the page opens without a key; null otherwise.
 * @example
 * sharedToken('#/s/AbC123xyz0'); // 'AbC123xyz0'
 */
export function sharedToken(hash: string): string | null {
  const m = /^#\/s\/([^/?]+)/.exec(hash);
  return m ? decodeURIComponent(m[1]) : null;
}

/**
 * The share token of the current location, following navigation (null when the page is not a share link).
 * @example
 * const token = useSharedToken();
 */
export function useSharedToken(): string | null {
  return sharedToken(useHash());
}
