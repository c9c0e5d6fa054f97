/** English / Deutsch switch (the browser's language is the default). */
import { setLang, t, useLang, type Lang } from '../i18n.js';

/**
 * The language select of the header and the sign-in page.
 * @example
 * <LangSwitch />
 */
export function LangSwitch() {
  const lang = useLang();
  return (
    <label class="lang">
      <span class="sr">{t('language')}</span>
      <select value={lang} onChange={(e) => setLang(e.currentTarget.value as Lang)} aria-label={t('language')}>
        <option value="en">English</option>
        <option value="de">Deutsch</option>
      </select>
    </label>
  );
}
