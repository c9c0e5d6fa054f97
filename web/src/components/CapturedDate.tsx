/**
 * The date of a photo or video (`captured_at`) with what kind of date it is (`captured_at_source`): a
 * recording date the file states, or only the file's own date, which is never shown as when it was taken.
 */
import { dateText } from '../format.js';
import { t, useLang } from '../i18n.js';

/**
 * The date in the page language ("File date 3 May 2024" when it is only the file's date), or nothing.
 * @example
 * <CapturedDate value={item.captured_at} source={item.captured_at_source} />
 */
export function CapturedDate({ value, source }: { value: unknown; source?: unknown }) {
  const lang = useLang();
  if (typeof value !== 'string' || !value) return null;
  const text = dateText(value, lang);
  if (!text) return null;
  if (source === 'file') return <time dateTime={value} title={t('fileDateHint')}>{t('fileDate', text)}</time>;
  return <time dateTime={value} title={t(source === 'filename' ? 'nameDateHint' : 'takenHint')}>{text}</time>;
}
