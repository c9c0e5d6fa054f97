/**
 * Playable sources seen in search results, per collection and media id, kept for this tab: the item
 * endpoint may not carry a `src` for every item, a search result always does when the media is served.
 */
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
 * A remembered source, if any.
 * @example
 * knownSource('trips', 'clip'); // 'http://127.0.0.1:8484/files/…#t=8'
 */
export function knownSource(collection: string, mediaId: string): string | undefined {
  return all()[`${collection}/${mediaId}`];
}
