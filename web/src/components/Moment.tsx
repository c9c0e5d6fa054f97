/** One search hit as a moment: thumbnail, title, time and the passage with the query words marked. */
import type { SearchResult } from '../api.js';
import { CapturedDate } from './CapturedDate.js';
import { clock, highlightParts, placeText } from '../format.js';
import { lang, t } from '../i18n.js';
import { href } from '../router.js';

/** A passage with the query words in `<mark>`. */
export function Marked({ text, words }: { text: string; words: string[] }) {
  return <>{highlightParts(text, words).map((p, i) => (p.hit ? <mark key={i}>{p.text}</mark> : p.text))}</>;
}

/**
 * One result as a link to the player at its start time (focusable; arrows move between them).
 * @example
 * <Moment r={result} collection="trips" pub={false} title="Beach" words={['goal']} collectionName="Trips" />
 */
export function Moment({ r, collection, pub, title, words, collectionName }: { r: SearchResult; collection: string; pub: boolean; title: string; words: string[]; collectionName?: string }) {
  const start = Math.round(r.start_time * 10) / 10;
  // A photo has no moments: no time badge, no "at 0:00", and its link opens the picture.
  const still = r.media_type === 'image';
  return (
    <a class="card moment" data-result href={href('c', collection, 'play', r.media_id, { t: still ? undefined : start, pub: pub ? 1 : undefined })}>
      <span class="thumb">{r.image_url ? <img src={r.image_url} alt="" loading="lazy" /> : <span class="ph" />}{!still && <span class="badge">{clock(r.start_time)}</span>}</span>
      <span class="stack tight">
        <strong>{title}</strong>
        {collectionName && <span class="muted" data-collection={collection}>{t('inCollection', collectionName)}</span>}
        <span class="muted">{still ? t('type_image') : t('at', clock(r.start_time))}{r.captured_at ? ' · ' : ''}<CapturedDate value={r.captured_at} source={r.captured_at_source} />{r.place ? ` · ${placeText(r.place, lang())}` : ''}</span>
        <span class="passage"><Marked text={r.content} words={words} /></span>
        {r.copies && r.copies.length > 0 && (
          <span class="muted" data-copies title={r.copies.map((c) => c.title ?? c.media_id).join(', ')}>{t('alsoInCopies', r.copies.length)}</span>
        )}
        {r.people && r.people.length > 0 && (
          <span class="row wrap chips people">
            {r.people.map((p) => <span key={p.person_id} class="chip">{p.name ?? t('unnamed')}</span>)}
          </span>
        )}
      </span>
    </a>
  );
}

/**
 * Arrow keys move between the moments of a list (and from the search box into it): focus the next or
 * previous `[data-result]` element.
 * @example
 * <div onKeyDown={arrowNavigation}>…</div>
 */
export function arrowNavigation(e: KeyboardEvent): void {
  if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
  const root = e.currentTarget as HTMLElement;
  const all = [...root.querySelectorAll<HTMLElement>('[data-result]')];
  if (!all.length) return;
  const i = all.indexOf(document.activeElement as HTMLElement);
  const next = e.key === 'ArrowDown' ? (i < 0 ? 0 : Math.min(i + 1, all.length - 1)) : i <= 0 ? -1 : i - 1;
  e.preventDefault();
  if (next < 0) root.querySelector<HTMLElement>('input[type=search]')?.focus();
  else all[next].focus();
}
