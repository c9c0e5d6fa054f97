/**
 * Sharing a moment (the item's owner or an admin): a link that plays the item without a key, for 1 or 7
 * days, from where the player is (from the start once the video has ended) or from the moment searched or
 * opened; the link to copy; the item's live links with their expiry and Revoke.
 */
import { useState } from 'preact/hooks';
import type { Share } from '../api.js';
import { useSession } from '../context.js';
import { clock, dateTime } from '../format.js';
import { t, useLang } from '../i18n.js';
import { useLoad } from '../load.js';
import { ask } from './Dialog.js';

/** Where a new link starts, as the player says it: its position (0 once ended) and the moment opened (0: none). */
export interface ShareMoment { now: number; ended: boolean; opened: number }

/** The choice between the player's position and the moment opened, when they differ. */
function StartChoice({ at, choose, moment }: { at: 'now' | 'opened'; choose: (x: 'now' | 'opened') => void; moment: ShareMoment }) {
  return (
    <fieldset class="row wrap plain" data-share-start>
      <legend class="sr">{t('shareStart')}</legend>
      <span aria-hidden="true">{t('shareStart')}</span>
      <label class="check"><input type="radio" name="share-start" checked={at === 'now'} onChange={() => choose('now')} /> {moment.ended ? t('shareFromStart') : t('shareFromNow', clock(moment.now))}</label>
      <label class="check"><input type="radio" name="share-start" checked={at === 'opened'} onChange={() => choose('opened')} /> {t('shareFromOpened', clock(moment.opened))}</label>
    </fieldset>
  );
}

/**
 * The Share section of the player; a still always starts at 0.
 * @example
 * <SharePanel collection="trips" mediaId="clip" moment={{ now: 17.4, ended: false, opened: 9 }} still={false} />
 */
export function SharePanel({ collection, mediaId, moment, still }: { collection: string; mediaId: string; moment: ShareMoment; still: boolean }) {
  const { api, notify } = useSession();
  const lang = useLang();
  const list = useLoad(() => api.shares(collection, mediaId), [api, collection, mediaId]);
  const [days, setDays] = useState<1 | 7>(7);
  const [made, setMade] = useState<Share | null>(null);
  const fail = (e: Error) => notify(t('error', e.message), 'error');
  const [at, setAt] = useState<'now' | 'opened'>('now');
  // Opened at a moment the player has since left: the person picks which one the link starts at.
  const choice = !still && moment.opened > 0 && Math.floor(moment.opened) !== Math.floor(moment.now);
  const from = still ? 0 : Math.floor(choice && at === 'opened' ? moment.opened : moment.now);
  const create = (e: Event) => {
    e.preventDefault();
    api.share(collection, mediaId, days, from).then((s) => { setMade(s); list.reload(); }, fail);
  };
  const copy = (url: string) => navigator.clipboard?.writeText(url).then(() => notify(t('copied')), () => notify(url));
  const what = (s: Share) => (still ? t('shareLinkPhoto') : t('shareLinkFrom', clock(s.start_time)));
  const revoke = async (s: Share) => {
    const yes = await ask({ title: t('revokeTitle'), body: t('revokeBody', what(s)), confirm: t('revokeShare'), danger: true });
    if (!yes) return;
    api.revokeShare(collection, mediaId, s.share_id).then(() => {
      if (made?.share_id === s.share_id) setMade(null);
      notify(t('revoked'));
      list.reload();
    }, fail);
  };
  const shares = list.value?.shares ?? [];
  return (
    <details class="card share">
      <summary>{t('shareSection')}</summary>
      <div class="stack">
        <p class="muted">{still ? t('shareExplainPhoto') : t('shareExplain')}</p>
        <form class="row wrap" onSubmit={create}>
          <fieldset class="row wrap plain">
            <legend class="sr">{t('shareFor')}</legend>
            <span aria-hidden="true">{t('shareFor')}</span>
            <label class="check"><input type="radio" name="share-days" checked={days === 1} onChange={() => setDays(1)} /> {t('oneDay')}</label>
            <label class="check"><input type="radio" name="share-days" checked={days === 7} onChange={() => setDays(7)} /> {t('sevenDays')}</label>
          </fieldset>
          {choice && <StartChoice at={at} choose={setAt} moment={moment} />}
          <button type="submit" class="primary">{still ? t('shareCreatePhoto') : t('shareCreate', clock(from))}</button>
        </form>
        {made && (
          <div class="stack tight" data-share-link>
            <label for="share-url">{t('shareLink')}</label>
            <div class="row">
              <input id="share-url" class="grow" readOnly value={made.url} onFocus={(e) => e.currentTarget.select()} />
              <button type="button" onClick={() => copy(made.url)}>{t('copyShareLink')}</button>
            </div>
          </div>
        )}
        {shares.length > 0 && (
          <section class="stack tight" aria-labelledby="shares-h">
            <h4 id="shares-h">{t('shareLinks')}</h4>
            <ul class="shares">
              {shares.map((s) => (
                <li key={s.share_id} class="row between wrap" data-share={s.share_id}>
                  <span>{what(s)} · <span class="muted">{t('expires', dateTime(s.expires_at, lang))}</span></span>
                  <button type="button" class="danger small" aria-label={`${t('revokeShare')}: ${what(s)}, ${t('expires', dateTime(s.expires_at, lang))}`} onClick={() => void revoke(s)}>
                    {t('revokeShare')}
                  </button>
                </li>
              ))}
            </ul>
          </section>
        )}
      </div>
    </details>
  );
}
