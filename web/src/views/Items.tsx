/** One collection's items as a grid: thumbnail, title, type, duration, captured date, indexing state; delete. */
import { useState } from 'preact/hooks';
import type { Item } from '../api.js';
import { CapturedDate } from '../components/CapturedDate.js';
import { PendingCard, usePolledTasks } from '../components/PendingTasks.js';
import { useSession } from '../context.js';
import { clock } from '../format.js';
import { t } from '../i18n.js';
import { useLoad } from '../load.js';
import { href } from '../router.js';

function ItemCard({ collection, pub, item, onDelete }: { collection: string; pub: boolean; item: Item; onDelete: () => void }) {
  const title = item.title || item.media_id;
  const link = href('c', collection, 'play', item.media_id, pub ? { pub: 1 } : {});
  return (
    <li class="card item">
      <a href={link} class="thumb" tabIndex={-1} aria-hidden="true">
        {item.thumbnail_url ? <img src={item.thumbnail_url} alt="" loading="lazy" /> : <span class="ph" />}
        {item.duration != null && <span class="badge">{clock(item.duration)}</span>}
      </a>
      <div class="stack tight">
        <h3><a href={link}>{title}</a></h3>
        <p class="muted">
          {t(`type_${item.type}`)} · {t('indexed')}
          {(item as { captured_at?: unknown }).captured_at ? ' · ' : ''}<CapturedDate value={(item as { captured_at?: unknown }).captured_at} source={(item as { captured_at_source?: unknown }).captured_at_source} />
        </p>
        {!pub && <button type="button" class="danger small" aria-label={`${t('delete')}: ${title}`} onClick={onDelete}>{t('delete')}</button>}
      </div>
    </li>
  );
}

/**
 * A collection's grid: items being indexed first, then the items, a page of 48 at a time.
 * @example
 * <Items collection="trips" pub={false} />
 */
export function Items({ collection, pub }: { collection: string; pub: boolean }) {
  const { api, notify } = useSession();
  const [pages, setPages] = useState<(string | null)[]>([null]);
  const [extra, setExtra] = useState<Item[]>([]);
  const first = useLoad(() => api.items(collection, pub, null), [api, collection, pub]);
  const tasks = usePolledTasks(() => first.reload());
  const pending = tasks.filter((x) => x.endpoint === '/index' && x.data.collection === collection && (x.status === 'queued' || x.status === 'running'));
  const items = [...(first.value?.items ?? []), ...extra];
  const nextOffset = extra.length ? pages[pages.length - 1] : (first.value?.offset ?? null);
  const more = async () => {
    const page = await api.items(collection, pub, nextOffset);
    setExtra((x) => [...x, ...page.items]);
    setPages((p) => [...p, page.offset]);
  };
  const remove = (item: Item) => {
    if (!confirm(t('confirmDeleteItem', item.title || item.media_id))) return;
    api.deleteItem(collection, item.media_id).then(() => {
      setExtra((x) => x.filter((i) => i.media_id !== item.media_id));
      first.reload();
      notify(t('deleted'));
    }, (e: Error) => notify(t('error', e.message), 'error'));
  };
  return (
    <div class="stack">
      <div class="row between wrap">
        <h2>{collection}</h2>
        <div class="row wrap">
          <a class="button" href={href('c', collection, 'search', pub ? { pub: 1 } : {})}>{t('search')}</a>
          <a class="button" href={href('c', collection, 'explore', pub ? { pub: 1 } : {})}>{t('explore')}</a>
          {!pub && <a class="button" href={href('add', { c: collection })}>{t('add')}</a>}
        </div>
      </div>
      {first.error && <p class="error" role="alert">{t('error', first.error.message)}</p>}
      {first.value && !items.length && !pending.length && <p class="muted">{t('none')}</p>}
      <ul class="cards grid" aria-label={t('items')}>
        {pending.map((task) => <PendingCard key={task.id} task={task} />)}
        {items.map((item) => <ItemCard key={item.media_id} collection={collection} pub={pub} item={item} onDelete={() => remove(item)} />)}
      </ul>
      {nextOffset && <button type="button" onClick={more}>{t('more')}</button>}
    </div>
  );
}
