/** Titles of the media a list of results mentions, fetched once per media id. */
import { useEffect, useState } from 'preact/hooks';
import type { Api } from './api.js';

/**
 * media_id → title (or the media id while unknown).
 * @example
 * const title = useTitles(api, 'trips', false, results.map((r) => r.media_id));
 * title('clip'); // 'Beach walk'
 */
export function useTitles(api: Api, collection: string, pub: boolean, ids: string[]): (id: string) => string {
  const [titles, setTitles] = useState<Record<string, string>>({});
  const key = [...new Set(ids)].sort().join('\n');
  useEffect(() => {
    const missing = key ? key.split('\n').filter((id) => !(id in titles)) : [];
    for (const id of missing) {
      api.item(collection, id, pub).then(
        (item) => setTitles((x) => ({ ...x, [id]: item.title || id })),
        () => setTitles((x) => ({ ...x, [id]: id })),
      );
    }
  }, [api, collection, pub, key]);
  return (id) => titles[id] ?? id;
}
