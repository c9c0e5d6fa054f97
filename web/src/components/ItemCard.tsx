/**
 * One item of a collection's grid: thumbnail (a video frame, an audio item's waveform, the photo), title,
 * type, capture date; a photo has no duration badge. The owner gets a box to select it and Delete.
 */
import type { Item } from '../api.js';
import { clock } from '../format.js';
import { t } from '../i18n.js';
import { href } from '../router.js';
import { CapturedDate } from './CapturedDate.js';

/** What a card may offer: selection and delete (owners), nothing for another owner's public item. */
export interface CardActions {
  selected: boolean;
  onSelect: (on: boolean) => void;
  onDelete: () => void;
}

/**
 * A grid card; `actions` only for items the caller may change.
 * @example
 * <ItemCard collection="trips" pub={false} item={item} actions={{ selected, onSelect, onDelete }} />
 */
export function ItemCard({ collection, pub, item, actions }: { collection: string; pub: boolean; item: Item; actions?: CardActions }) {
  const title = item.title || item.media_id;
  const link = href('c', collection, 'play', item.media_id, pub ? { pub: 1 } : {});
  const still = item.type === 'image';
  return (
    <li class={`card item ${actions?.selected ? 'selected' : ''}`} data-item={item.media_id}>
      <div class="thumb-wrap">
        {/* biome-ignore lint/a11y/useAnchorContent: the picture repeats the title link for the mouse; it is hidden from the keyboard and screen readers on purpose */}
        <a href={link} class="thumb" tabIndex={-1} aria-hidden="true">
          {item.thumbnail_url ? <img src={item.thumbnail_url} alt="" loading="lazy" /> : <span class="ph" />}
          {!still && item.duration != null && <span class="badge">{clock(item.duration)}</span>}
        </a>
        {actions && (
          <label class="pick">
            <input type="checkbox" checked={actions.selected} onChange={(e) => actions.onSelect(e.currentTarget.checked)} />
            <span class="sr">{t('selectItem', title)}</span>
          </label>
        )}
      </div>
      <div class="stack tight">
        <h3><a href={link}>{title}</a></h3>
        <p class="muted">
          {t(`type_${item.type}`)} · {t('indexed')}
          {item.captured_at ? ' · ' : ''}<CapturedDate value={item.captured_at} source={item.captured_at_source} />
        </p>
        {actions && <button type="button" class="danger small" aria-label={`${t('delete')}: ${title}`} onClick={actions.onDelete}>{t('delete')}</button>}
      </div>
    </li>
  );
}
