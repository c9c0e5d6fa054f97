/**
 * Playable sources seen in search results, per collection and media id, kept for this tab: the item
 * endpoint may not carry a `src` for every item, a search result always does when the media is served.
 */
import type { Api } from './api.js';

const NAME = 'vidx.sources';

function all(): Record<string, string> {
  try {
    return JSON.parse(sessionStorage.getItem(NAME) ?? '{}') as Record<string, string>;
  } catch {
    return {};
  }
}

/**
 * Remembers the signed `src` of search results.
 * @example
 * rememberSources('trips', results);
 */
export function rememberSources(collection: string, results: { media_id: string; src: string }[]): void {
  const map = all();
  for (const r of results) if (r.src) map[`${collection}/${r.media_id}`] = r.src;
  sessionStorage.setItem(NAME, JSON.stringify(map));
}

/**
 * Finds a playable source for an item the tab has not seen in a search yet (a deep link opened in a new
 * tab): a search limited to that media id, with words the item surely holds (its title, else its summary).
 * Search results carry the signed link to stored media; the item endpoint does not always.
 * @example
 * const src = await findSource(api, 'trips', 'clip', 'Beach walk');
 */
export async function findSource(api: Api, collection: string, mediaId: string, words: string): Promise<string | undefined> {
  const query = words.split(/\s+/).filter(Boolean).slice(0, 8).join(' ');
  if (!query) return undefined;
  const { results } = await api.search(collection, query, mediaId);
  rememberSources(collection, results);
  return results[0]?.src || undefined;
}

/**
 * A remembered source, if any.
 * @example
 * knownSource('trips', 'clip'); // 'http://127.0.0.1:8484/files/…#t=8'
 */
export function knownSource(collection: string, mediaId: string): string | undefined {
  return all()[`${collection}/${mediaId}`];
}
