/** Search filters of the folders API: media type, a capture date range and who speaks (sent as POST /search extras). */
import type { SearchFilterFields } from '../api.js';
import { useState } from 'preact/hooks';
import { t, useLang } from '../i18n.js';
import { datePattern, readDay, showDay } from '../typed-date.js';

/** The filters as the search body takes them; empty means "any". */
export interface Filters {
  media_type: '' | 'video' | 'audio' | 'image';
  captured_after: string;
  captured_before: string;
  /** Only what this person says (a result's speaker chip sets it). */
  speaker: { person_id: string; name: string | null } | null;
}

export const NO_FILTERS: Filters = { media_type: '', captured_after: '', captured_before: '', speaker: null };

/**
 * The filters present, as search body fields (dates as the start and end of the chosen days, UTC).
 * @example
 * filterFields({ media_type: 'image', captured_after: '2024-05-01', captured_before: '', speaker: null }); // { media_type: 'image', captured_after: '2024-05-01T00:00:00.000Z' }
 */
export function filterFields(f: Filters): SearchFilterFields {
  const out: SearchFilterFields = {};
  if (f.media_type) out.media_type = f.media_type;
  if (f.captured_after) out.captured_after = new Date(`${f.captured_after}T00:00:00Z`).toISOString();
  if (f.captured_before) out.captured_before = new Date(`${f.captured_before}T23:59:59.999Z`).toISOString();
  if (f.speaker) out.speaker = f.speaker.person_id;
  return out;
}

/**
 * One "taken after/before" day, typed as the page's language writes dates (see typed-date.ts); tidied when
 * the field is left. Made anew when the language changes (keyed by it), so it shows the day the new way.
 */
function DayField({ id, label, value, onChange }: { id: string; label: string; value: string; onChange: (iso: string) => void }) {
  const lang = useLang();
  const [text, setText] = useState(() => showDay(value, lang));
  const [bad, setBad] = useState(false);
  const typed = (s: string) => {
    setText(s);
    const iso = readDay(s, lang);
    if (iso !== null) { setBad(false); if (iso !== value) onChange(iso); }
  };
  const left = () => {
    const iso = readDay(text, lang);
    setBad(iso === null);
    if (iso) setText(showDay(iso, lang));
  };
  return (
    <>
      <label for={id}>{label}</label>
      <input id={id} type="text" inputMode="numeric" class="day" lang={lang} value={text} placeholder={datePattern(lang)} autoComplete="off"
        aria-invalid={bad ? 'true' : undefined} aria-describedby={bad ? `${id}-bad` : undefined} onInput={(e) => typed(e.currentTarget.value)} onBlur={left} />
      {bad && <span id={`${id}-bad`} class="error">{t('badDay', datePattern(lang))}</span>}
    </>
  );
}

/**
 * The filter fields: media type, and the days a moment was taken after and before.
 * @example
 * <SearchFilters value={filters} onChange={setFilters} />
 */
export function SearchFilters({ value, onChange }: { value: Filters; onChange: (f: Filters) => void }) {
  const lang = useLang();
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
      <DayField key={`after-${lang}`} id="f-after" label={t('capturedAfter')} value={value.captured_after} onChange={(d) => onChange({ ...value, captured_after: d })} />
      <DayField key={`before-${lang}`} id="f-before" label={t('capturedBefore')} value={value.captured_before} onChange={(d) => onChange({ ...value, captured_before: d })} />
    </fieldset>
  );
}
