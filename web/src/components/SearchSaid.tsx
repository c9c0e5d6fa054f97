/**
 * Beside the results: what the search could not look for (the server's notices, already in the page's
 * language) and, when query words were read as others, which words the results are for.
 */
import type { SearchSaid as Said } from '../api.js';
import { t } from '../i18n.js';
import { Coded } from './Coded.js';
import { correctedQuery } from '../search-said.js';

/**
 * The notices and "Showing results for …"; nothing when the answer said nothing. `notices: false` leaves
 * the notices out (the view shows them below its results, so a phone sees the results first).
 * @example
 * <SearchSaid said={{ notices: [], corrected: [{ from: 'sandpapper', to: 'sandpaper' }] }} query="sandpapper" />
 */
export function SearchSaid({ said, query, notices = true }: { said: Said; query: string; notices?: boolean }) {
  const corrected = said.corrected.length ? correctedQuery(query, said.corrected) : '';
  return (
    <>
      {corrected && <p data-corrected>{t('showingFor', corrected)}</p>}
      {notices && <SearchNotices said={said} />}
    </>
  );
}

/**
 * Only the notices of a search answer.
 * @example
 * <SearchNotices said={said} />
 */
export function SearchNotices({ said }: { said: Said }) {
  return <>{said.notices.map((n) => <p key={n.code} class="notice" role="note" data-notice={n.code}><Coded text={n.message} /></p>)}</>;
}
