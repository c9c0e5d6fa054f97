/** The grid's order (capture date, name, duration, date added; either way round), type filter and item count. */
import { t } from '../i18n.js';
import { NATURAL_ORDER, type Listing } from '../listing.js';

const SORT_LABEL = { captured: 'sortCaptured', name: 'sortName', duration: 'sortDuration', added: 'sortAdded' } as const;
/** What "ascending" and "descending" mean for each sort, in words. */
const ORDER_LABEL = {
  captured: { desc: 'newestFirst', asc: 'oldestFirst' },
  added: { desc: 'newestFirst', asc: 'oldestFirst' },
  name: { asc: 'aToZ', desc: 'zToA' },
  duration: { desc: 'longestFirst', asc: 'shortestFirst' },
} as const;

/**
 * Sort, order and type selects with the count of items the listing covers.
 * @example
 * <GridTools listing={listing} total={12} onChange={setListing} />
 */
export function GridTools({ listing, total, onChange }: { listing: Listing; total: number | undefined; onChange: (l: Listing) => void }) {
  const orders = ORDER_LABEL[listing.sort];
  const naturalFirst = NATURAL_ORDER[listing.sort] === 'asc' ? (['asc', 'desc'] as const) : (['desc', 'asc'] as const);
  return (
    <div class="row wrap between grid-tools">
      <fieldset class="row wrap plain">
        <legend class="sr">{t('gridTools')}</legend>
        <span class="field">
          <label for="g-sort">{t('sortBy')}</label>
          <select id="g-sort" value={listing.sort}
            onChange={(e) => { const sort = e.currentTarget.value as Listing['sort']; onChange({ ...listing, sort, order: NATURAL_ORDER[sort] }); }}>
            {(['captured', 'name', 'duration', 'added'] as const).map((s) => <option key={s} value={s}>{t(SORT_LABEL[s])}</option>)}
          </select>
        </span>
        <span class="field">
          <label for="g-order">{t('sortOrder')}</label>
          <select id="g-order" value={listing.order} onChange={(e) => onChange({ ...listing, order: e.currentTarget.value as Listing['order'] })}>
            {naturalFirst.map((o) => <option key={o} value={o}>{t(orders[o])}</option>)}
          </select>
        </span>
        <span class="field">
          <label for="g-type">{t('showType')}</label>
          <select id="g-type" value={listing.type} onChange={(e) => onChange({ ...listing, type: e.currentTarget.value as Listing['type'] })}>
            <option value="">{t('allTypes')}</option>
            <option value="video">{t('videos')}</option>
            <option value="audio">{t('audios')}</option>
            <option value="image">{t('pictures')}</option>
          </select>
        </span>
      </fieldset>
      {total !== undefined && <p class="muted count" role="status" data-count>{t('itemCount', total)}</p>}
    </div>
  );
}
