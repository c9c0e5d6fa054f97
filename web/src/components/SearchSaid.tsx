/**
 * Beside the results: what the search could not look for (the server's notices, already in the page's
 * language) and, when query words were read as others, which words the results are for.
 */
import type { SearchSaid as Said } from '../api.js';
import { t } from '../i18n.js';
import { correctedQuery } from '../search-said.js';

/**
 * The notices and "Showing results for …"; nothing when the answer said nothing.
 * @example
 * <SearchSaid said={{ notices: [], corrected: [{ from: 'sandpapper', to: 'sandpaper' }] }} query="sandpapper" />
 */
export function SearchSaid({ said, query }: { said: Said; query: string }) {
  const corrected = said.corrected.length ? correctedQuery(query, said.corrected) : '';
  return (
    <>
      {corrected && <p data-corrected>{t('showingFor', corrected)}</p>}
      {said.notices.map((n) => <p key={n.code} class="notice" role="note" data-notice={n.code}>{withCode(n.message)}</p>)}
    </>
  );
}

/** A server message with its `commands` shown as code (the server writes them in backticks, as its other messages do). */
function withCode(message: string) {
  return message.split(/`([^`]+)`/).map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : part));
}
