/** One group of copies side by side: thumbnail, title, resolution, size, duration, overlap; Keep (and why), Delete, or keep this one too. */
import type { DuplicateGroup as Group, DuplicateItem } from '../api.js';
import { useSession } from '../context.js';
import { formatBytes } from '../../../src/tools/bytes.js';
import { clock } from '../format.js';
import { lang, t } from '../i18n.js';
import { useLoad } from '../load.js';
import { href } from '../router.js';

/** One copy: its picture and facts comes from the item itself (the group names it only). */
function Copy({ collection, item, keep, why, onDelete }: { collection: string; item: DuplicateItem; keep: boolean; why: Group['keep_reason']; onDelete: (item: DuplicateItem) => void }) {
  const { api } = useSession();
  const full = useLoad(() => api.item(collection, item.media_id, false), [api, collection, item.media_id]);
  const title = item.title || item.media_id;
  const still = full.value?.type === 'image';
  const facts: [string, string][] = [
    [t('resolution'), item.width && item.height ? `${item.width}×${item.height}` : '–'],
    [t('detailSize'), item.size == null ? '–' : formatBytes(item.size, lang())],
    ...(still || !item.duration ? [] : ([[t('duration'), clock(item.duration)]] as [string, string][])),
    [t('inOthers'), `${Math.round(item.overlap * 100)} %`],
  ];
  return (
    <li class={`copy card ${keep ? 'keep' : ''}`} data-media-id={item.media_id}>
      <span class="thumb">{full.value?.thumbnail_url ? <img src={full.value.thumbnail_url} alt="" loading="lazy" /> : <span class="ph" />}</span>
      <h4><a href={href('c', collection, 'play', item.media_id)}>{title}</a></h4>
      <dl class="facts">
        {facts.map(([k, v]) => <div key={k}><dt>{k}</dt> <dd>{v}</dd></div>)}
      </dl>
      {keep ? (
        <><span class="pill keep-mark" title={t('keepHint')}>✓ {t('keep')}</span> <span class="muted keep-why">{t(`keep_${why}`)}</span></>
      ) : item.covered_by_keep ? (
        <button type="button" class="danger small" aria-label={`${t('delete')}: ${title}`} onClick={() => onDelete(item)}>{t('delete')}</button>
      ) : (
        <span class="muted keep-too" data-keep-too>{t('keepToo')}</span>
      )}
    </li>
  );
}

/**
 * A group: how many copies and how alike, then the copies best first, the one to keep marked.
 * @example
 * <DuplicateGroup collection="home" group={g} onDelete={remove} />
 */
export function DuplicateGroup({ collection, group, onDelete }: { collection: string; group: Group; onDelete: (item: DuplicateItem, group: Group) => void }) {
  const id = `group-${group.keep}`;
  return (
    <section class="stack tight dup-group" aria-labelledby={id}>
      <h3 id={id}>{t('copiesAlike', group.items.length, Math.round(group.similarity * 100))}</h3>
      <ul class="copies">
        {group.items.map((item) => <Copy key={item.media_id} collection={collection} item={item} keep={item.media_id === group.keep} why={group.keep_reason} onDelete={(i) => onDelete(i, group)} />)}
      </ul>
    </section>
  );
}
