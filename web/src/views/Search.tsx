/** Search one collection: a search box, moments as results; Enter searches, arrows move, a click plays. */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Api, Cluster, SearchResult } from '../api.js';
import { arrowNavigation, Moment } from '../components/Moment.js';
import { filterFields, NO_FILTERS, SearchFilters, type Filters } from '../components/SearchFilters.js';
import { useSession } from '../context.js';
import { queryWords } from '../format.js';
import { t } from '../i18n.js';
import { go, href } from '../router.js';

/**
 * POST /search covers the caller's own collections; another owner's public collection is searched through
 * /search_clusters (which takes `search_public_collections`), its clusters' moments merged best first.
 */
async function find(api: Api, collection: string, pub: boolean, query: string, filters: Filters): Promise<{ results: SearchResult[] }> {
  if (!pub) return api.search(collection, query, filterFields(filters));
  const results: SearchResult[] = [];
  await api.stream<Cluster>('/search_clusters', { collection, query, search_public_collections: true }, (c) => results.push(...c.cluster_results), new AbortController().signal);
  return { results: results.sort((a, b) => b.score - a.score) };
}

/**
 * The search view; the query lives in the route (`?q=`), so a search is a link.
 * @example
 * <Search collection="trips" pub={false} query="penalty" />
 */
export function Search({ collection, pub, query }: { collection: string; pub: boolean; query: string }) {
  const { api } = useSession();
  const [text, setText] = useState(query);
  const [results, setResults] = useState<SearchResult[] | null>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const box = useRef<HTMLInputElement>(null);

  const shown = useRef(query);
  useEffect(() => {
    // Only a new ?q= (back, a link) replaces what is in the box; the first run must not wipe early typing.
    if (shown.current !== query) setText(query);
    shown.current = query;
    if (!query.trim()) return void (setResults(null), box.current?.focus());
    let current = true;
    setBusy(true);
    setError('');
    find(api, collection, pub, query, filters).then(
      ({ results: list }) => {
        if (!current) return;
        setResults(list);
        setBusy(false);
      },
      (e: Error) => current && (setError(t('error', e.message)), setBusy(false)),
    );
    return () => { current = false; };
  }, [api, collection, query, filters]);

  const submit = (e: Event) => {
    e.preventDefault();
    go(href('c', collection, 'search', { q: text.trim(), pub: pub ? 1 : undefined }));
  };
  const words = queryWords(query);
  return (
    <div class="stack" onKeyDown={arrowNavigation}>
      <h2>{t('search')} · <a href={href('c', collection, pub ? { pub: 1 } : {})}>{collection}</a></h2>
      <form role="search" onSubmit={submit} class="row">
        <label for="q" class="sr">{t('searchLabel')}</label>
        <input id="q" ref={box} type="search" value={text} placeholder={t('searchPlaceholder')} autoFocus
          onInput={(e) => setText(e.currentTarget.value)} aria-label={t('searchLabel')} />
        <button type="submit" class="primary">{t('searchButton')}</button>
      </form>
      {!pub && <SearchFilters value={filters} onChange={setFilters} />}
      {error && <p class="error" role="alert">{error}</p>}
      <p class="muted" role="status">{busy ? t('loading') : results ? (results.length === 1 ? t('result1') : results.length ? t('results', results.length) : t('noResults')) : ''}</p>
      {results && results.length > 0 && (
        <ol class="moments" aria-label={t('results', results.length)}>
          {results.map((r) => (
            <li key={`${r.media_id}-${r.episode_id}`}>
              <Moment r={r} collection={collection} pub={pub} title={r.title ?? r.media_id} words={words} />
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
