/** Search filters of the folders API: media type and a capture date range (sent as POST /search extras). */
import type { SearchFilterFields } from '../api.js';
import { t } from '../i18n.js';

/** The filters as the search body takes them; empty means "any". */
export interface Filters { media_type: '' | 'video' | 'audio' | 'image'; captured_after: string; captured_before: string }

export const NO_FILTERS: Filters = { media_type: '', captured_after: '', captured_before: '' };

/**
 * The filters present, as search body fields (dates as the start and end of the chosen days, UTC).
 * @example
 * filterFields({ media_type: 'image', captured_after: '2024-05-01', captured_before: '' }); // { media_type: 'image', captured_after: '2024-05-01T00:00:00.000Z' }
 */
export function filterFields(f: Filters): SearchFilterFields {
  const out: SearchFilterFields = {};
  if (f.media_type) out.media_type = f.media_type;
  if (f.captured_after) out.captured_after = new Date(`${f.captured_after}T00:00:00Z`).toISOString();
  if (f.captured_before) out.captured_before = new Date(`${f.captured_before}T23:59:59.999Z`).toISOString();
  return out;
}

export function SearchFilters({ value, onChange }: { value: Filters; onChange: (f: Filters) => void }) {
  return (
    <fieldset class="row wrap filters">
      <legend class="sr">{t('filters')}</legend>
      <label for="f-type">{t('mediaType')}</label>
      <select id="f-type" value={value.media_type} onChange={(e) => onChange({ ...value, media_type: e.currentTarget.value as Filters['media_type'] })}>
        <option value="">{t('anyType')}</option>
        <option value="video">{t('type_video')}</option>
        <option value="audio">{t('type_audio')}</option>
        <option value="image">{t('type_image')}</option>
      </select>
      <label for="f-after">{t('capturedAfter')}</label>
      <input id="f-after" type="date" value={value.captured_after} onChange={(e) => onChange({ ...value, captured_after: e.currentTarget.value })} />
      <label for="f-before">{t('capturedBefore')}</label>
      <input id="f-before" type="date" value={value.captured_before} onChange={(e) => onChange({ ...value, captured_before: e.currentTarget.value })} />
    </fieldset>
  );
}
