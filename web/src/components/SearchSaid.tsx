/**
 * Beside the results: what the search could not look for (the server's notices, already in the page's
 * language) and, when query words were read as others, which words the results are for, with a link that
 * searches the words as typed.
 */
import type { SearchSaid as Said } from '../api.js';
import { useSession } from '../context.js';
import { type Lang, lang, t, useLang } from '../i18n.js';
import { href } from '../router.js';
import { Coded } from './Coded.js';
import { correctedQuery, type Notice } from '../search-said.js';

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
 * The items a notice means, in words: a few titles in the page's quotes and how many more ("“Memo”, “Talk”
 * and 3 more" / "„Memo“, „Talk“ und 3 weitere").
 * @example
 * noticeItems({ items: [{ media_id: 'memo', title: 'Memo' }], item_count: 4 }, 'en'); // '“Memo” and 3 more'
 */
function noticeItems(n: Pick<Notice, 'items' | 'item_count'>, language: Lang): string {
  const open = language === 'de' ? '„' : '“';
  const close = language === 'de' ? '“' : '”';
  const parts = (n.items ?? []).map((i) => `${open}${i.title || i.media_id}${close}`);
  const more = (n.item_count ?? parts.length) - parts.length;
  if (more > 0) parts.push(t('andMore', more));
  return new Intl.ListFormat(language, { type: 'conjunction' }).format(parts);
}

/**
 * A notice in the page's words, in the language shown now (the server's text is in the language the search
 * was made in): what is missing, which items (speech), and for admins the way to Models rather than a
 * command for the server's shell. A notice the page has no words for shows the server's text.
 */
function NoticeText({ n, admin }: { n: Notice; admin: boolean }) {
  if (n.code === 'image_text_missing') return <>{t('imageTextMissing')} {admin ? <a href={href('models')}>{t('installImageText')}</a> : t('askAdminImageText')}</>;
  if (n.code === 'speech_missing' && n.items?.length) {
    const count = n.item_count ?? n.items.length;
    return <>{t('speechMissing', noticeItems(n, lang()))} {admin ? <a href={href('models')}>{t('installSpeech', count)}</a> : t('askAdminSpeech')}</>;
  }
  return <Coded text={n.message} />;
}

/**
 * Only the notices of a search answer.
 * @example
 * <SearchNotices said={said} />
 */
export function SearchNotices({ said }: { said: Said }) {
  const { me } = useSession();
  useLang();
  return <>{said.notices.map((n) => <p key={n.code} class="notice" role="note" data-notice={n.code}><NoticeText n={n} admin={me.role === 'admin'} /></p>)}</>;
}
