/**
 * A share link (`#/s/<token>`), opened by someone without a key: the one item, playing from the shared
 * moment (or the photo), with its chapters and transcript, read-only, and when the link stops working.
 * An unknown, expired or revoked link says so plainly.
 */
import { useRef, useState } from 'preact/hooks';
import { VidxError, openShare } from '../api.js';
import { Chapters, focusChapters, Timeline } from '../components/Chapters.js';
import { LangSwitch } from '../components/LangSwitch.js';
import { MediaPlayer, startPlaying, type MediaElement } from '../components/MediaPlayer.js';
import { PhotoViewer } from '../components/PhotoViewer.js';
import { Transcript } from '../components/Transcript.js';
import { dateTime, ownMedia, stripFragment } from '../format.js';
import { PlayClock } from '../components/PlayClock.js';
import { t, useLang } from '../i18n.js';
import { useLoad } from '../load.js';

/**
 * The shared player, with its own small header (no navigation: this person cannot go anywhere else).
 * @example
 * <Shared token="AbC123xyz0" />
 */
export function Shared({ token }: { token: string }) {
  const lang = useLang();
  const shared = useLoad(() => openShare(token), [token]);
  const media = useRef<MediaElement>(null);
  const chapterList = useRef<HTMLElement>(null);
  const m = shared.value;
  const [now, setNow] = useState(0);
  // The length the player plays, once it knows; until then the item's.
  const [played, setPlayed] = useState(0);
  const seek = (to: number) => {
    const el = media.current;
    if (!el) return;
    el.currentTime = to;
    setNow(to);
    void startPlaying(el);
  };
  const gone = shared.error instanceof VidxError && shared.error.status === 404;
  const src = m?.src ? stripFragment(m.src) : '';
  const playable = src && ownMedia(src);
  const still = m?.type === 'image';
  const title = m?.title || t('sharedTitle');
  const chapters = still ? [] : m?.chapters ?? [];
  const duration = played || m?.duration || 0;
  return (
    <>
      <header class="top">
        <span class="logo">vidx</span>
        <div class="row tools"><LangSwitch /></div>
      </header>
      <main id="main" tabIndex={-1} class="shared">
        {shared.loading && !m && <p class="center" role="status">{t('loading')}</p>}
        {gone && (
          <section class="card stack gone" role="alert">
            <h2>{t('shareGone')}</h2>
            <p>{t('shareGoneHint')}</p>
          </section>
        )}
        {shared.error && !gone && <p class="error" role="alert">{t('error', shared.error.message)}</p>}
        {m && (
          <div class="player-layout">
            <section class="stack" aria-labelledby="player-h">
              <h2 id="player-h">{title}</h2>
              <p class="muted" data-expires>{t('shareUntil', dateTime(m.expires_at, lang))}</p>
              {!playable && <p class="muted">{t('noSource')}</p>}
              {playable && still && <PhotoViewer src={m.picture_url || src} original={src} title={title} />}
              {playable && !still && (
                <>
                  <div class="media-wrap">
                    {chapters.length > 0 && (
                      <button type="button" class="skip-inline" onClick={() => focusChapters(chapterList.current)}>{t('skipToChapters')}</button>
                    )}
                    <MediaPlayer type={m.type === 'audio' ? 'audio' : 'video'} src={src} title={title} picture={m.thumbnail_url}
                      start={m.start_time} mediaRef={media} onTime={setNow} onDuration={setPlayed} captions={{ lines: m.transcript, language: null }} />
                  </div>
                  <Timeline episodes={chapters} duration={duration} now={now} onSeek={seek} />
                  <PlayClock now={now} duration={duration} />
                </>
              )}
            </section>
            {!still && (
              <aside class="stack">
                <section aria-labelledby="tr-h"><h3 id="tr-h">{t('transcript')}</h3><Transcript lines={m.transcript} now={now} onSeek={seek} /></section>
                {chapters.length > 0 && (
                  <section aria-labelledby="ch-h" ref={chapterList}><h3 id="ch-h">{t('chapters')}</h3><Chapters episodes={chapters} now={now} onSeek={seek} /></section>
                )}
              </aside>
            )}
          </div>
        )}
      </main>
    </>
  );
}
