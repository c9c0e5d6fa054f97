/**
 * Beside the results: what the search could not look for (the server's notices, already in the page's
 * language) and, when query words were read as others, which words the results are for, with a link that
 * searches the words as typed.
 */
import type { SearchSaid as Said } from '../api.js';
import { t } from '../i18n.js';
import { correctedQuery } from '../search-said.js';

/**
 * The notices and "Showing results for …. Search for … instead"; nothing when the answer said nothing.
 * `asTyped` is the link to the same search without correction. `notices: false` leaves the notices out
 * (the view shows them below its results, so a phone sees the results first).
 * @example
 * <SearchSaid said={{ notices: [], corrected: [{ from: 'sandpapper', to: 'sandpaper' }] }} query="sandpapper" asTyped="#/c/home/search?q=sandpapper&exact=1" />
 */
export function SearchSaid({ said, query, asTyped, notices = true }: { said: Said; query: string; asTyped: string; notices?: boolean }) {
  const corrected = said.corrected.length ? correctedQuery(query, said.corrected) : '';
  return (
    <>
      {corrected && (
        <p data-corrected>
          {t('showingFor', corrected)} <a href={asTyped} data-search-instead>{t('searchInstead', query.trim())}</a>
        </p>
      )}
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
  return <>{said.notices.map((n) => <p key={n.code} class="notice" role="note" data-notice={n.code}>{withCode(n.message)}</p>)}</>;
}

/** A server message with its `commands` shown as code (the server writes them in backticks, as its other messages do). */
function withCode(message: string) {
  return message.split(/`([^`]+)`/).map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : part));
}
