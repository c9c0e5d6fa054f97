/**
 * When a photo or video was taken (`captured_at`, which the folders API adds to items); nothing when the
 * server does not send it.
 */
import { useLang } from '../i18n.js';

/**
 * The capture date in the page language, or nothing.
 * @example
 * <CapturedDate value={item.captured_at} />
 */
export function CapturedDate({ value }: { value: unknown }) {
  const lang = useLang();
  if (typeof value !== 'string' || !value) return null;
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return null;
  return <time dateTime={value}>{d.toLocaleDateString(lang === 'de' ? 'de-DE' : 'en-GB', { year: 'numeric', month: 'short', day: 'numeric' })}</time>;
}
