/** Explore a collection: its suggestions as prompts to click, and clustered results drawn as the stream arrives. */
import { useEffect, useState } from 'preact/hooks';
import type { Cluster, Suggestion } from '../api.js';
import { arrowNavigation, Moment } from '../components/Moment.js';
import { useSession } from '../context.js';
import { useCollections } from '../collection-names.js';
import { queryWords } from '../format.js';
import { t, useLang } from '../i18n.js';

/**
 * The explore view: streamed suggestions as prompts and streamed clusters of moments.
 * @example
 * <Explore collection="trips" pub={false} />
 */
export function Explore({ collection, pub }: { collection: string; pub: boolean }) {
  const { api } = useSession();
  const { name } = useCollections(api);
  const lang = useLang();
  const [suggestions, setSuggestions] = useState<Suggestion['completion'][]>([]);
  const [query, setQuery] = useState('');
  const [asked, setAsked] = useState('');
  const [clusters, setClusters] = useState<Cluster[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');

  useEffect(() => {
    const ctl = new AbortController();
    setSuggestions([]);
    api.stream('/collection_suggestions', { collection, search_public_collections: pub, search_language: lang },
      (el) => setSuggestions((s) => [...s, el.completion]), ctl.signal)
      .catch((e: Error) => !ctl.signal.aborted && setError(t('error', e.message)));
    return () => ctl.abort();
  }, [api, collection, pub, lang]);

  useEffect(() => {
    if (!asked) return;
    const ctl = new AbortController();
    setClusters([]);
    setBusy(true);
    setError('');
    api.stream('/search_clusters', { collection, query: asked, search_public_collections: pub, search_language: lang }, (el) => {
      setClusters((c) => [...c, el]);
    }, ctl.signal).then(
      () => setBusy(false),
      (e: Error) => { if (!ctl.signal.aborted) { setError(t('error', e.message)); setBusy(false); } },
    );
    return () => ctl.abort();
  }, [api, collection, pub, lang, asked]);

  const ask = (q: string) => { setQuery(q); setAsked(q); };
  const words = queryWords(asked);
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: arrow keys move between results: the handler catches them as they bubble up from the links
    <div class="stack" onKeyDown={arrowNavigation}>
      <h2>{t('explore')} · {name(collection)}</h2>
      {/* biome-ignore lint/a11y/useSemanticElements: <search> is not in Preact's JSX types yet; a form with role=search is its equivalent */}
      <form role="search" class="row" onSubmit={(e) => { e.preventDefault(); ask(query.trim()); }}>
        <label for="cq" class="sr">{t('clusterQuery')}</label>
        <input id="cq" type="search" value={query} placeholder={t('searchPlaceholder')} onInput={(e) => setQuery(e.currentTarget.value)} />
        <button type="submit" class="primary">{t('searchButton')}</button>
      </form>
      {suggestions.length > 0 && (
        <section aria-labelledby="sg-h">
          <h3 id="sg-h">{t('suggestions')}</h3>
          <ul class="row wrap chips">
            {suggestions.map((s, i) => <li key={i}><button type="button" class={s.type} onClick={() => ask(s.text)}>{s.text}</button></li>)}
          </ul>
        </section>
      )}
      {error && <p class="error" role="alert">{error}</p>}
      <p class="muted" role="status">{busy ? t('exploring') : asked && !clusters.length ? t('noResults') : ''}</p>
      {clusters.length > 0 && (
        <section aria-labelledby="cl-h" class="stack">
          <h3 id="cl-h">{t('clusters')}</h3>
          {clusters.map((c) => (
            <article key={c.teaser_id} class="cluster card stack">
              <h4>{c.answer}</h4>
              <p class="muted">{c.additional_info}</p>
              <ol class="moments">
                {c.cluster_results.map((r) => (
                  <li key={`${r.media_id}-${r.episode_id}`}><Moment r={r} collection={collection} pub={pub} title={r.title ?? r.media_id} words={words} /></li>
                ))}
              </ol>
              {c.related_queries.length > 0 && (
                <ul class="row wrap chips">{c.related_queries.map((q) => <li key={q}><button type="button" onClick={() => ask(q)}>{q}</button></li>)}</ul>
              )}
            </article>
          ))}
        </section>
      )}
    </div>
  );
}
