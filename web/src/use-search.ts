/**
 * Running a search for the search view: one collection or all of them, by words, a picture and/or a moment
 * ("more like this"), with the results, progress and error of the latest search only.
 */
import { useEffect, useState } from 'preact/hooks';
import type { Api, SearchProbe, SearchResult, SearchSaid } from './api.js';
import { filterFields, type Filters } from './components/SearchFilters.js';
import { t } from './i18n.js';
import { searchAll, type FoundResult } from './search-all.js';
import { NOTHING_SAID } from './search-said.js';

/**
 * POST /search covers the caller's own collections; another owner's public collection is searched through
 * /search_clusters (which takes `search_public_collections`, and words only), its clusters' moments merged best first.
 */
async function findIn(api: Api, collection: string, pub: boolean, probe: SearchProbe, filters: Filters): Promise<{ list: FoundResult[]; said: SearchSaid }> {
  if (!pub) {
    const { results, notices, corrected, understood } = await api.search(collection, probe, filterFields(filters));
    return { list: results.map((r) => ({ ...r, collection })), said: { notices, corrected, ...(understood ? { understood } : {}) } };
  }
  const results: SearchResult[] = [];
  if (probe.query) await api.stream('/search_clusters', { collection, query: probe.query, search_public_collections: true }, (c) => results.push(...c.cluster_results), new AbortController().signal);
  return { list: results.sort((a, b) => b.score - a.score).map((r) => ({ ...r, collection })), said: NOTHING_SAID };
}

/** Where a search stands. */
export interface SearchState {
  results: FoundResult[] | null;
  /** What the answers said besides: notices and corrected words. */
  said: SearchSaid;
  error: string;
  progress: { answered: number; of: number } | null;
}

/**
 * Searches whenever the probe (its `key` says when it changed), the scope or the filters change; nothing
 * to search for clears the results.
 * @example
 * const { results, said, error, progress } = useSearch(api, { collection: 'trips', pub: false, own: [] }, probe, probeKey, filters);
 */
export function useSearch(api: Api, scope: { collection: string; pub: boolean; own: string[] }, probe: SearchProbe, probeKey: string, filters: Filters): SearchState {
  const [state, setState] = useState<SearchState>({ results: null, said: NOTHING_SAID, error: '', progress: null });
  const ownIds = scope.own.join('\n');
  // biome-ignore lint/correctness/useExhaustiveDependencies: probeKey and ownIds stand for the probe and the owned collections, which are new objects each render.
  useEffect(() => {
    if (!probe.query && !probe.picture && !probe.like) return void setState({ results: null, said: NOTHING_SAID, error: '', progress: null });
    const controller = new AbortController();
    const live = () => !controller.signal.aborted;
    if (!scope.collection) {
      const ids = ownIds ? ownIds.split('\n') : [];
      setState({ results: null, said: NOTHING_SAID, error: '', progress: { answered: 0, of: ids.length } });
      void searchAll(api, ids, probe, filterFields(filters), (found, answered, _failed, said) => setState({ results: found, said, error: '', progress: { answered, of: ids.length } }), controller.signal)
        .then(() => live() && setState((s) => ({ ...s, results: s.results ?? [] })));
    } else {
      setState({ results: null, said: NOTHING_SAID, error: '', progress: { answered: 0, of: 1 } });
      findIn(api, scope.collection, scope.pub, probe, filters).then(
        ({ list, said }) => live() && setState({ results: list, said, error: '', progress: { answered: 1, of: 1 } }),
        (e: Error) => live() && setState({ results: null, said: NOTHING_SAID, error: t('error', e.message), progress: null }),
      );
    }
    return () => controller.abort();
  }, [api, scope.collection, scope.pub, probeKey, filters, scope.collection ? '' : ownIds]);
  return state;
}
