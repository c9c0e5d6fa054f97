/**
 * One collection's items as a grid: sorted and filtered on the server, with the count; items being indexed
 * first; select many to re-index or delete (one in-page confirmation); delete one.
 */
import { useEffect, useState } from 'preact/hooks';
import type { Item } from '../api.js';
import { ask } from '../components/Dialog.js';
import { GridTools } from '../components/GridTools.js';
import { ItemCard } from '../components/ItemCard.js';
import { OnThisDay } from '../components/OnThisDay.js';
import { PendingCard } from '../components/PendingTasks.js';
import { tasksChanged } from '../tasks-store.js';
import { useTasks } from '../use-tasks.js';
import { SelectionBar } from '../components/SelectionBar.js';
import { useSession } from '../context.js';
import { t } from '../i18n.js';
import { useListing } from '../listing.js';
import { useCollections } from '../collection-names.js';
import { useLoad } from '../load.js';
import { href } from '../router.js';

/**
 * A collection's grid, a page of 48 at a time; with `near`, only the items recorded near that point or
 * place (`place` is its name as the Places view showed it).
 * @example
 * <Items collection="trips" pub={false} near="" place="" />
 */
export function Items({ collection, pub, near, nearKm, place, span = null }: { collection: string; pub: boolean; near: string; nearKm?: number | undefined; place: string; span?: { after: string; before: string; label: string } | null }) {
  const { api, me, notify } = useSession();
  const { name } = useCollections(api);
  const [listing, setListing] = useListing(collection);
  const [extra, setExtra] = useState<{ items: Item[]; offset: string | null } | null>(null);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [busy, setBusy] = useState(false);
  const [queued, setQueued] = useState<number | null>(null);
  const query = {
    sort: listing.sort, order: listing.order, ...(listing.type ? { type: listing.type } : {}), ...(near ? { near, ...(nearKm ? { near_km: nearKm } : {}) } : {}),
    ...(span ? { captured_after: span.after, captured_before: span.before } : {}),
  };
  const first = useLoad(() => api.items(collection, pub, null, query), [api, collection, pub, listing.sort, listing.order, listing.type, near, nearKm, span?.after, span?.before]);
  // Another order, filter or collection starts again from its first page, with nothing selected.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the listing's fields are the triggers of this reset, not values it reads.
  useEffect(() => {
    setExtra(null);
    setSelected(new Set());
    setQueued(null);
  }, [collection, pub, listing.sort, listing.order, listing.type, near, nearKm, span?.after, span?.before]);
  const reload = () => { setExtra(null); first.reload(); };
  // A finished index task may add an item to the listing shown now.
  const tasks = useTasks(reload);
  const pending = tasks.filter((x) => x.endpoint === '/index' && x.data.collection === collection && (x.status === 'queued' || x.status === 'running'));
  const items = [...(first.value?.items ?? []), ...(extra?.items ?? [])];
  const nextOffset = extra ? extra.offset : (first.value?.offset ?? null);
  const canEdit = !pub || me.role === 'admin';
  const chosen = items.filter((i) => selected.has(i.media_id));

  const more = () => {
    api.items(collection, pub, nextOffset, query).then(
      (page) => setExtra((x) => ({ items: [...(x?.items ?? []), ...page.items], offset: page.offset })),
      (e: Error) => notify(t('error', e.message), 'error'),
    );
  };
  const select = (id: string, on: boolean) => setSelected((s) => {
    const next = new Set(s);
    if (on) next.add(id);
    else next.delete(id);
    return next;
  });
  const removeMany = async (list: Item[]) => {
    const one = list.length === 1;
    const yes = await ask({
      title: one ? t('deleteOneTitle', list[0].title || list[0].media_id) : t('deleteManyTitle', list.length),
      body: one ? t('deleteItemBody') : t('deleteItemsBody'),
      confirm: one ? t('delete') : t('deleteMany', list.length),
      danger: true,
    });
    if (!yes) return;
    setBusy(true);
    let failed = 0;
    // One at a time: a 2-core server deleting files, and a failure names only itself.
    for (const item of list) {
      try {
        await api.deleteItem(collection, item.media_id);
      } catch {
        failed++;
      }
    }
    setBusy(false);
    setSelected(new Set());
    reload();
    // The button that was pressed is gone with the items: the keyboard goes on from the view's heading.
    document.getElementById('items-h')?.focus();
    if (failed) notify(t('deleteFailed', failed), 'error');
    else notify(one ? t('deleted') : t('deletedMany', list.length));
  };
  const reindex = () => {
    setBusy(true);
    api.reindex(collection, chosen.map((i) => i.media_id)).then(
      () => { setQueued(chosen.length); setSelected(new Set()); tasksChanged(); document.getElementById('items-h')?.focus(); },
      (e: Error) => notify(t('error', e.message), 'error'),
    ).finally(() => setBusy(false));
  };

  return (
    <div class="stack">
      <div class="row between wrap">
        <h2 id="items-h" tabIndex={-1}>{name(collection)}</h2>
        <div class="row wrap">
          <a class="button" href={href('c', collection, 'search', pub ? { pub: 1 } : {})}>{t('search')}</a>
          <a class="button" href={href('c', collection, 'explore', pub ? { pub: 1 } : {})}>{t('explore')}</a>
          <a class="button" href={href('c', collection, 'places', pub ? { pub: 1 } : {})}>{t('places')}</a>
          <a class="button" href={href('c', collection, 'time', pub ? { pub: 1 } : {})}>{t('time')}</a>
          {!pub && <a class="button" href={href('c', collection, 'duplicates')}>{t('duplicates')}</a>}
          {!pub && <a class="button" href={href('add', { c: collection })}>{t('add')}</a>}
        </div>
      </div>
      {near && (
        <p class="notice row wrap" data-near>
          <span>{t('nearPlace', place || near)}</span>
          <a href={href('c', collection, pub ? { pub: 1 } : {})}>{t('showAllItems')}</a>
        </p>
      )}
      {span && (
        <p class="notice row wrap" data-span>
          <span>{t('recordedIn', span.label)}</span>
          <a href={href('c', collection, pub ? { pub: 1 } : {})}>{t('showAllItems')}</a>
        </p>
      )}
      {!near && !span && <OnThisDay collection={collection} pub={pub} />}
      <GridTools listing={listing} total={first.value?.total} onChange={setListing} />
      {canEdit && (
        <SelectionBar shown={items.length} selected={chosen.length} busy={busy}
          onAll={(on) => setSelected(on ? new Set(items.map((i) => i.media_id)) : new Set())}
          onReindex={reindex} onDelete={() => void removeMany(chosen)} onClear={() => setSelected(new Set())} />
      )}
      {queued !== null && (
        <p class="notice" role="status" data-queued>
          {t('gridReindexQueued', queued)} <a href={href('tasks')}>{t('followInTasks')}</a>
        </p>
      )}
      {first.error && <p class="error" role="alert">{t('error', first.error.message)}</p>}
      {first.value && !items.length && !pending.length && (listing.type ? <p class="muted">{t('noneOfType')}</p> : <p class="empty">{t('emptyCollection')} {!pub && <a href={href('add', { c: collection })}>{t('add')}</a>}</p>)}
      <ul class="cards grid" aria-label={t('items')}>
        {pending.map((task) => <PendingCard key={task.id} task={task} />)}
        {items.map((item) => (
          <ItemCard key={item.media_id} collection={collection} pub={pub} item={item}
            actions={canEdit ? { selected: selected.has(item.media_id), onSelect: (on) => select(item.media_id, on), onDelete: () => void removeMany([item]) } : undefined} />
        ))}
      </ul>
      {nextOffset && <button type="button" onClick={more}>{t('more')}</button>}
    </div>
  );
}
