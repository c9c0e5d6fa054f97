/**
 * The copies inside one collection (`#/c/{id}/duplicates`, GET …/duplicates): each group side by side, the
 * best copy marked Keep, the others deleted through the in-page confirmation.
 */
import { useState } from 'preact/hooks';
import type { DuplicateGroup as Group, DuplicateItem } from '../api.js';
import { useCollections } from '../collection-names.js';
import { ask } from '../components/Dialog.js';
import { DuplicateGroup } from '../components/DuplicateGroup.js';
import { useSession } from '../context.js';
import { t } from '../i18n.js';
import { useLoad } from '../load.js';
import { href } from '../router.js';

/** The similarities offered; the first is the server's default. */
const THRESHOLDS = [0.8, 0.9, 0.95];

/**
 * The duplicates view of a collection the caller owns (or an admin).
 * @example
 * <Duplicates collection="home" />
 */
export function Duplicates({ collection }: { collection: string }) {
  const { api, notify } = useSession();
  const { name } = useCollections(api);
  const [threshold, setThreshold] = useState(THRESHOLDS[0]!);
  const found = useLoad(() => api.duplicates(collection, threshold), [api, collection, threshold]);
  const groups = found.value?.groups ?? [];

  const remove = async (item: DuplicateItem, group: Group) => {
    const title = item.title || item.media_id;
    const kept = group.items.find((i) => i.media_id === group.keep);
    const keptTitle = kept?.title || group.keep;
    if (!(await ask({ title: t('deleteOneTitle', title), body: t('deleteCopyBody', keptTitle), confirm: t('delete'), danger: true }))) return;
    // An upload's only stored copy goes with the item: the person is asked once more, in plain words.
    if (item.uploaded && !(await ask({ title: t('onlyCopyTitle', title), body: t('onlyCopyBody', keptTitle), confirm: t('deleteForGood'), danger: true }))) return;
    try {
      await api.deleteItem(collection, item.media_id);
      notify(t('deleted'));
    } catch (e) {
      notify(t('error', (e as Error).message), 'error');
    }
    found.reload();
    // The button that was pressed is gone: the keyboard goes on from the view's heading.
    document.getElementById('dup-h')?.focus();
  };

  return (
    <div class="stack">
      <div class="row between wrap">
        <h2 id="dup-h" tabIndex={-1}>{t('duplicates')} · <a href={href('c', collection)}>{name(collection)}</a></h2>
        <span class="field row">
          <label for="dup-threshold">{t('leastSimilar')}</label>
          <select id="dup-threshold" value={String(threshold)} onChange={(e) => setThreshold(Number(e.currentTarget.value))}>
            {THRESHOLDS.map((x, i) => <option key={x} value={String(x)}>{i === 0 ? t('similarDefault', x * 100) : `${x * 100} %`}</option>)}
          </select>
        </span>
      </div>
      {found.error && <p class="error" role="alert">{t('error', found.error.message)}</p>}
      <p class="muted" role="status" data-count>{found.loading ? t('loading') : groups.length ? t('groupCount', groups.length) : ''}</p>
      {found.value && !groups.length && <p class="empty" data-empty>{t('noDuplicates')}</p>}
      {groups.length > 0 && <p class="hint">{t('duplicatesIntro')}</p>}
      {groups.map((g) => <DuplicateGroup key={g.keep} collection={collection} group={g} onDelete={(i, group) => void remove(i, group)} />)}
    </div>
  );
}
