/**
 * Search a collection, or all of the caller's collections at once: a search box, moments as results; Enter
 * searches, arrows move, a click plays.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Api, SearchResult } from '../api.js';
import { useCollections } from '../collection-names.js';
import { arrowNavigation, Moment } from '../components/Moment.js';
import { filterFields, NO_FILTERS, SearchFilters, type Filters } from '../components/SearchFilters.js';
import { SpeechNotice } from '../components/SpeechNotice.js';
import { useSession } from '../context.js';
import { queryWords } from '../format.js';
import { t } from '../i18n.js';
import { go, href } from '../router.js';
import { searchAll, type FoundResult } from '../search-all.js';

/**
 * POST /search covers the caller's own collections; another owner's public collection is searched through
 * /search_clusters (which takes `search_public_collections`), its clusters' moments merged best first.
 */
async function findIn(api: Api, collection: string, pub: boolean, query: string, filters: Filters): Promise<FoundResult[]> {
  if (!pub) return (await api.search(collection, query, filterFields(filters))).results.map((r) => ({ ...r, collection }));
  const results: SearchResult[] = [];
  await api.stream('/search_clusters', { collection, query, search_public_collections: true }, (c) => results.push(...c.cluster_results), new AbortController().signal);
  return results.sort((a, b) => b.score - a.score).map((r) => ({ ...r, collection }));
}

/** Where a search goes: one collection (`#/c/{id}/search`) or all of them (`#/search`). */
function searchLink(collection: string, q: string, pub: boolean): string {
  const query = { q: q || undefined, pub: pub ? 1 : undefined };
  return collection ? href('c', collection, 'search', query) : href('search', query);
}

/**
 * The search view; the query lives in the route (`?q=`), so a search is a link. An empty `collection`
 * searches every collection of the caller, results appearing as each collection answers.
 * @example
 * <Search collection="trips" pub={false} query="penalty" />
 */
export function Search({ collection, pub, query }: { collection: string; pub: boolean; query: string }) {
  const { api } = useSession();
  const { own, name } = useCollections(api);
  const [text, setText] = useState(query);
  const [results, setResults] = useState<FoundResult[] | null>(null);
  const [error, setError] = useState('');
  const [progress, setProgress] = useState<{ answered: number; of: number } | null>(null);
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const box = useRef<HTMLInputElement>(null);
  const all = !collection;
  const ownIds = own.map((c) => c.collection_id).join('\n');

  const shown = useRef(query);
  useEffect(() => {
    // Only a new ?q= (back, a link) replaces what is in the box; the first run must not wipe early typing.
    if (shown.current !== query) setText(query);
    shown.current = query;
    if (!query.trim()) return void (setResults(null), box.current?.focus());
    const controller = new AbortController();
    setError('');
    setResults(null);
    if (all) {
      const ids = ownIds ? ownIds.split('\n') : [];
      setProgress({ answered: 0, of: ids.length });
      void searchAll(api, ids, query, filterFields(filters), (found, answered) => {
        setResults(found);
        setProgress({ answered, of: ids.length });
      }, controller.signal).then(() => !controller.signal.aborted && setResults((r) => r ?? []));
    } else {
      setProgress({ answered: 0, of: 1 });
      findIn(api, collection, pub, query, filters).then(
        (list) => !controller.signal.aborted && (setResults(list), setProgress({ answered: 1, of: 1 })),
        (e: Error) => !controller.signal.aborted && (setError(t('error', e.message)), setProgress(null)),
      );
    }
    return () => controller.abort();
  }, [api, collection, query, filters, all ? ownIds : '']);

  const submit = (e: Event) => {
    e.preventDefault();
    go(searchLink(collection, text.trim(), pub));
  };
  const words = queryWords(query);
  const busy = progress !== null && progress.answered < progress.of;
  return (
    <div class="stack" onKeyDown={arrowNavigation}>
      <h2>{t('search')} · {all ? t('allCollections') : <a href={href('c', collection, pub ? { pub: 1 } : {})}>{name(collection)}</a>}</h2>
      <form role="search" onSubmit={submit} class="row wrap">
        <label for="q" class="sr">{t('searchLabel')}</label>
        <input id="q" ref={box} type="search" value={text} placeholder={t('searchPlaceholder')} autoFocus
          onInput={(e) => setText(e.currentTarget.value)} aria-label={t('searchLabel')} />
        {!pub && (
          <>
            <label for="search-in" class="sr">{t('collection')}</label>
            <select id="search-in" value={collection} onChange={(e) => go(searchLink(e.currentTarget.value, text.trim(), false))}>
              <option value="">{t('allCollections')}</option>
              {own.map((c) => <option key={c.collection_id} value={c.collection_id}>{c.name}</option>)}
            </select>
          </>
        )}
        <button type="submit" class="primary">{t('searchButton')}</button>
      </form>
      {!pub && <SearchFilters value={filters} onChange={setFilters} />}
      <SpeechNotice />
      {error && <p class="error" role="alert">{error}</p>}
      <p class="muted" role="status">
        {busy ? (all ? t('searchingIn', progress.answered, progress.of) : t('loading')) : results ? (results.length === 1 ? t('result1') : results.length ? t('results', results.length) : t('noResults')) : ''}
      </p>
      {results && results.length > 0 && (
        <ol class="moments" aria-label={t('results', results.length)}>
          {results.map((r) => (
            <li key={`${r.collection}-${r.media_id}-${r.episode_id}`}>
              <Moment r={r} collection={r.collection} pub={pub} title={r.title ?? r.media_id} words={words} {...(all ? { collectionName: name(r.collection) } : {})} />
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
