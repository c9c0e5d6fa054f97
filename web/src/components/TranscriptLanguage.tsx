/** The choice of subtitle language for the transcript list, when an item has subtitles in more than one. */
import { lang, t, useLang } from '../i18n.js';

/**
 * A language code's name in the page's language (`de` → "German" / "Deutsch"); the code itself when the
 * browser has no name for it, and "unknown" for `und`.
 * @example
 * languageName('de'); // 'German'
 */
export function languageName(code: string): string {
  if (code === 'und') return t('unknownLanguage');
  try {
    return new Intl.DisplayNames([lang()], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
}

/**
 * A select of the item's subtitle languages (the transcript's first); nothing with only one.
 * @example
 * <TranscriptLanguage languages={['en', 'de']} value="en" onChange={setShown} />
 */
export function TranscriptLanguage({ languages, value, onChange }: { languages: string[]; value: string; onChange: (code: string) => void }) {
  useLang();
  if (languages.length < 2) return null;
  return (
    <span class="field row wrap">
      <label for="tr-lang">{t('transcriptLanguage')}</label>
      <select id="tr-lang" value={value} onChange={(e) => onChange(e.currentTarget.value)}>
        {languages.map((code) => <option key={code} value={code}>{languageName(code)}</option>)}
      </select>
    </span>
  );
}
