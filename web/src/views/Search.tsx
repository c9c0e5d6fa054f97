/**
 * Search a collection, or all of the caller's collections at once: a search box that also takes a picture
 * (dropped, pasted or picked), moments as results, each with "More like this"; Enter searches, arrows move,
 * a click plays.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { LikeMoment } from '../api.js';
import { useCollections } from '../collection-names.js';
import { AnswerCard } from '../components/AnswerCard.js';
import { arrowNavigation, Moment } from '../components/Moment.js';
import { LikeChip, PictureButton, PictureChip, PictureHint } from '../components/PictureInput.js';
import { NO_FILTERS, SearchFilters, type Filters } from '../components/SearchFilters.js';
import { SearchNotices, SearchSaid } from '../components/SearchSaid.js';
import { UnderstoodChips } from '../components/UnderstoodChips.js';
import { useSession } from '../context.js';
import { clock, queryWords } from '../format.js';
import { t } from '../i18n.js';
import { useLoad } from '../load.js';
import { heldPicture, holdPicture, likeParams, pictureProblem, transferredFile } from '../picture-query.js';
import { go, href } from '../router.js';
import { correctedQuery } from '../search-said.js';
import type { FoundResult } from '../search-all.js';
import { useSearch } from '../use-search.js';

/** Screens this wide show the filters and tips open; narrower ones (phones) fold them away. */
const WIDE = '(min-width: 761px)';

/** What a search link carries besides its collection; `exact` searches the words as typed, never corrected. */
interface LinkProbe { q: string; img?: string; like?: LikeMoment; exact?: boolean }

/** Where a search goes: one collection (`#/c/{id}/search`) or all of them (`#/search`). */
function searchLink(collection: string, p: LinkProbe, pub: boolean): string {
  const query = { q: p.q || undefined, img: p.img, ...(p.like ? likeParams(p.like.media_id, p.like.start_time) : {}), pub: pub ? 1 : undefined, exact: p.exact ? 1 : undefined };
  return collection ? href('c', collection, 'search', query) : href('search', query);
}

/** "“Beach” at 0:12", or only the title for a photo. */
function likeText(title: string, like: LikeMoment, still: boolean): string {
  return still ? t('likeWhatPhoto', title) : t('likeWhat', title, clock(like.start_time));
}

/**
 * One result with its "More like this" link (a link beside the card, as a link cannot hold another).
 * @example
 * <Result r={r} pub={false} words={['goal']} />
 */
function Result({ r, pub, words, collectionName, onSpeaker }: { r: FoundResult; pub: boolean; words: string[]; collectionName?: string; onSpeaker?: (who: NonNullable<FoundResult['speaker']>) => void }) {
  const title = r.title ?? r.media_id;
  const still = r.media_type === 'image';
  const at = still ? 0 : r.start_time;
  return (
    <li class="result">
      <Moment r={r} collection={r.collection} pub={pub} title={title} words={words} {...(collectionName ? { collectionName } : {})} />
      {r.speaker && onSpeaker && (
        // Who says the line: a chip that keeps only what they say (in one collection: people are per collection).
        <button type="button" class="chip speaker" data-speaker={r.speaker.person_id} title={t('onlySaidBy', r.speaker.name ?? t('unnamed'))} onClick={() => onSpeaker(r.speaker!)}>
          {t('saidBy', r.speaker.name ?? t('unnamed'))}
        </button>
      )}
      {r.speaker && !onSpeaker && <span class="chip speaker">{t('saidBy', r.speaker.name ?? t('unnamed'))}</span>}
      {!pub && (
        <a class="more-like" href={href('c', r.collection, 'search', likeParams(r.media_id, at))} aria-label={`${t('moreLike')}: ${likeText(title, { media_id: r.media_id, start_time: at }, still)}`}>
          {t('moreLike')}
        </a>
      )}
    </li>
  );
}

/**
 * The search view; what is searched lives in the route (`?q=`, `?img=`, `?like=&at=`, `&exact=1` for the words
 * as typed), so a search is a link. An empty `collection` searches every collection of the caller, results
 * appearing as each collection answers.
 * @example
 * <Search collection="trips" pub={false} query="penalty" exact={false} img="" />
 */
export function Search({ collection, pub, query, exact, img, like }: { collection: string; pub: boolean; query: string; exact: boolean; img: string; like?: LikeMoment }) {
  const { api } = useSession();
  const { own, name } = useCollections(api);
  const [text, setText] = useState(query);
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [problem, setProblem] = useState('');
  const [over, setOver] = useState(false);
  const box = useRef<HTMLInputElement>(null);
  const [wide] = useState(() => window.matchMedia(WIDE).matches);
  const all = !collection;
  const picture = img && !pub ? heldPicture(img) : undefined;
  const likeNow = collection && !pub ? like : undefined;
  const likeItem = useLoad(() => (likeNow ? api.item(collection, likeNow.media_id, false) : Promise.resolve(null)), [api, collection, likeNow?.media_id]);
  const probeKey = `${query}\n${exact}\n${picture ? img : ''}\n${likeNow ? `${likeNow.media_id}@${likeNow.start_time}` : ''}`;
  const { results, said, error, progress } = useSearch(api, { collection, pub, own: own.map((c) => c.collection_id) }, { query: query.trim() || undefined, picture, like: likeNow, exact }, probeKey, filters);

  // A person is of one collection: another collection's search keeps no speaker.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the collection is what ends the speaker filter
  useEffect(() => setFilters((f) => (f.speaker ? { ...f, speaker: null } : f)), [collection]);

  const shown = useRef(query);
  useEffect(() => {
    // Only a new ?q= (back, a link) replaces what is in the box; the first run must not wipe early typing.
    if (shown.current !== query) setText(query);
    shown.current = query;
  }, [query]);

  const goWith = (p: Omit<LinkProbe, 'q'>, to = collection) => go(searchLink(to, { q: text.trim(), ...p }, pub && to === collection));
  const addPicture = (file: File) => {
    const why = pictureProblem(file);
    setProblem(why ? t(why, file.name || file.type) : '');
    // A picture takes the place of a moment: one look-alike at a time.
    if (!why) goWith({ img: holdPicture(file) });
  };
  const dropPicture = () => { goWith({ like: likeNow }); box.current?.focus(); };
  const dropLike = () => { goWith({ img: picture ? img : undefined }); box.current?.focus(); };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    const file = transferredFile(e.dataTransfer);
    if (file && !pub) addPicture(file);
  };
  const onPaste = (e: ClipboardEvent) => {
    const file = pub ? null : transferredFile(e.clipboardData);
    if (!file) return;
    e.preventDefault();
    addPicture(file);
  };

  // Corrected words are the ones the passages hold: those are marked.
  const words = queryWords(said.corrected.length ? correctedQuery(query, said.corrected) : query);
  const busy = progress !== null && progress.answered < progress.of;
  // The item of the moment, once it is the one the route names (the previous one lingers while it loads).
  const liked = likeNow && likeItem.value?.media_id === likeNow.media_id ? likeItem.value : null;
  const likeTitle = liked && likeNow ? likeText(liked.title || liked.media_id, likeNow, liked.type === 'image') : '';
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: arrow keys move between results: the handler catches them as they bubble up from the links
    <div class="stack" onKeyDown={arrowNavigation}>
      <h2>{t('search')} · {all ? t('allCollections') : <a href={href('c', collection, pub ? { pub: 1 } : {})}>{name(collection)}</a>}</h2>
      {/* biome-ignore lint/a11y/useSemanticElements: <search> is not in Preact's JSX types yet; a form with role=search is its equivalent */}
      <form role="search" class={`row wrap search-form ${over ? 'over' : ''}`} onSubmit={(e) => { e.preventDefault(); goWith({ img: picture ? img : undefined, like: likeNow }); }}
        onDragOver={(e) => { if (!pub && e.dataTransfer?.types.includes('Files')) { e.preventDefault(); setOver(true); } }}
        onDragLeave={() => setOver(false)} onDrop={onDrop}>
        <label for="q" class="sr">{t('searchLabel')}</label>
        {/* biome-ignore lint/a11y/noAutofocus: the search view exists to type a query; the box is its first and main control */}
        <input id="q" ref={box} type="search" value={text} placeholder={picture || likeNow ? t('searchPlaceholderWith') : t('searchPlaceholder')} autoFocus
          onInput={(e) => setText(e.currentTarget.value)} onPaste={onPaste} aria-label={t('searchLabel')} />
        {picture && <PictureChip file={picture} onRemove={dropPicture} />}
        {liked && <LikeChip what={likeTitle} picture={liked.thumbnail_url} onRemove={dropLike} />}
        <UnderstoodChips understood={exact ? undefined : said.understood} onRemove={() => { go(searchLink(collection, { q: query.trim(), img: picture ? img : undefined, like: likeNow, exact: true }, pub)); box.current?.focus(); }} />
        {filters.speaker && (
          <span class="chip speaker" data-speaker-filter>
            {t('onlySaidBy', filters.speaker.name ?? t('unnamed'))}
            <button type="button" class="small" aria-label={t('removeSpeaker')} onClick={() => setFilters({ ...filters, speaker: null })}>×</button>
          </span>
        )}
        {!pub && <PictureButton onPicture={addPicture} />}
        <button type="submit" class="primary">{t('searchButton')}</button>
      </form>
      {!pub && (
        // Folded away on a phone, so the first result is on the first screen; open on a wider one.
        <details class="search-more" open={wide}>
          <summary>{t('searchMore')}</summary>
          <div class="stack tight">
            <div class="row wrap">
              <label for="search-in">{t('collection')}</label>
              <select id="search-in" value={collection} onChange={(e) => goWith({ img: picture ? img : undefined }, e.currentTarget.value)}>
                <option value="">{t('allCollections')}</option>
                {own.map((c) => <option key={c.collection_id} value={c.collection_id}>{c.name}</option>)}
              </select>
            </div>
            <SearchFilters value={filters} onChange={setFilters} />
            <PictureHint />
          </div>
        </details>
      )}
      {img && !picture && !pub && <p class="notice" role="note" data-picture-lost>{t('pictureLost')}</p>}
      {(problem || error) && <p class="error" role="alert">{problem || error}</p>}
      {liked && likeNow && (
        <h3 data-like-heading>{t('likeHeading')} <a href={href('c', collection, 'play', likeNow.media_id, liked.type === 'image' ? {} : { t: likeNow.start_time })}>{likeTitle}</a></h3>
      )}
      {picture && <h3 data-picture-heading>{t('pictureHeading', picture.name || t('pastedPicture'))}</h3>}
      <p class="muted" role="status">
        {busy ? (all ? t('searchingIn', progress.answered, progress.of) : t('loading')) : results ? (results.length ? t('results', results.length) : query.trim() ? t('noResults') : t('noLookAlike')) : ''}
      </p>
      {!pub && query.trim() && !picture && !likeNow && <AnswerCard question={query.trim()} collection={collection} />}
      {/* What the search could not look for: above when nothing was found, else below the results. */}
      <SearchSaid said={said} query={query} asTyped={searchLink(collection, { q: query.trim(), img: picture ? img : undefined, like: likeNow, exact: true }, pub)} notices={!results?.length} />
      {results && results.length > 0 && (
        <ol class="moments" aria-label={t('results', results.length)}>
          {results.map((r) => <Result key={`${r.collection}-${r.media_id}-${r.episode_id}`} r={r} pub={pub} words={words} {...(all ? { collectionName: name(r.collection) } : { onSpeaker: (who: NonNullable<FoundResult['speaker']>) => setFilters({ ...filters, speaker: who }) })} />)}
        </ol>
      )}
      {results && results.length > 0 && <SearchNotices said={said} />}
    </div>
  );
}
