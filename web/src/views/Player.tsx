/**
 * The player for one item: the signed source in <video>/<audio> (or the picture), started at `?t=`; the
 * transcript, chapters (list and timeline marks), on-screen text, summaries, tags and a link to the moment.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { Chapters, Timeline } from '../components/Chapters.js';
import { Transcript } from '../components/Transcript.js';
import { useSession } from '../context.js';
import { clock, ownMedia, stripFragment } from '../format.js';
import { t } from '../i18n.js';
import { useLoad } from '../load.js';
import { href } from '../router.js';

/**
 * The player view for one item, started at `start` seconds.
 * @example
 * <Player collection="trips" mediaId="clip" pub={false} start={42} />
 */
export function Player({ collection, mediaId, pub, start }: { collection: string; mediaId: string; pub: boolean; start: number }) {
  const { api, notify } = useSession();
  const item = useLoad(() => api.item(collection, mediaId, pub), [api, collection, mediaId, pub]);
  const analysis = useLoad(() => api.analysis(collection, mediaId, pub), [api, collection, mediaId, pub]);
  // One ref for <video> and <audio>: the intersection type fits both, only HTMLMediaElement members are used.
  const media = useRef<HTMLVideoElement & HTMLAudioElement>(null);
  const [now, setNow] = useState(start);

  // A new ?t= for the same item (a chapter link, a second search hit) seeks without reloading.
  useEffect(() => {
    const el = media.current;
    if (el && el.readyState >= 1) el.currentTime = start;
    setNow(start);
  }, [start]);

  const raw = item.value?.src || '';
  const src = raw ? stripFragment(raw) : '';
  const playable = src && ownMedia(src);
  const seek = (to: number) => {
    const el = media.current;
    if (!el) return;
    el.currentTime = to;
    setNow(to);
    void el.play().catch(() => undefined);
  };
  const episodes = analysis.value?.episodes ?? [];
  const lines = episodes.flatMap((e) => e.audio).sort((a, b) => a.start - b.start);
  const onScreen = [...new Set(episodes.flatMap((e) => e.on_screen_text))];
  const tags = [...new Set(episodes.flatMap((e) => e.tags))];
  const duration = analysis.value?.video_duration || item.value?.duration || 0;
  const title = item.value?.title || mediaId;
  const copyLink = () => {
    const link = `${location.origin}/${href('c', collection, 'play', mediaId, { t: Math.floor(now), pub: pub ? 1 : undefined })}`;
    navigator.clipboard?.writeText(link).then(() => notify(t('copied')), () => notify(link));
  };
  const type = item.value?.type ?? 'video';
  const mediaProps = {
    src, controls: true, preload: 'metadata' as const, 'aria-label': title,
    onLoadedMetadata: (e: Event) => { if (start) (e.currentTarget as HTMLMediaElement).currentTime = start; },
    onTimeUpdate: (e: Event) => setNow((e.currentTarget as HTMLMediaElement).currentTime),
    onSeeked: (e: Event) => setNow((e.currentTarget as HTMLMediaElement).currentTime),
  };

  return (
    <div class="player-layout">
      <section class="stack" aria-labelledby="player-h">
        <div class="row between wrap">
          <h2 id="player-h">{title}</h2>
          <a href={href('c', collection, pub ? { pub: 1 } : {})}>{t('back')}</a>
        </div>
        {item.error && <p class="error" role="alert">{t('error', item.error.message)}</p>}
        {item.value && !playable && (
          <p class="muted">{t('noSource')} {src && <a href={src} rel="noreferrer noopener" target="_blank">{t('openSource')}</a>}</p>
        )}
        {playable && type === 'image' && <img class="media" src={src} alt={title} />}
        {playable && type === 'video' && <video ref={media} class="media" {...mediaProps} />}
        {playable && type === 'audio' && <audio ref={media} class="media audio" {...mediaProps} />}
        <Timeline episodes={episodes} duration={duration} now={now} onSeek={seek} />
        <div class="row wrap">
          <span class="muted">{clock(now)}{duration ? ` / ${clock(duration)}` : ''}</span>
          <button type="button" onClick={copyLink}>{t('copyLink')}</button>
        </div>
        {analysis.value?.video_summary && (
          <section><h3>{t('summary')}</h3><p>{analysis.value.video_summary}</p></section>
        )}
        {tags.length > 0 && (
          <section><h3>{t('tags')}</h3><ul class="tags">{tags.map((x) => <li key={x}>{x}</li>)}</ul></section>
        )}
        {onScreen.length > 0 && (
          <section><h3>{t('onScreen')}</h3><ul class="onscreen">{onScreen.map((x) => <li key={x}>{x}</li>)}</ul></section>
        )}
      </section>
      <aside class="stack">
        <section aria-labelledby="tr-h"><h3 id="tr-h">{t('transcript')}</h3><Transcript lines={lines} now={now} onSeek={seek} /></section>
        {episodes.length > 0 && (
          <section aria-labelledby="ch-h"><h3 id="ch-h">{t('chapters')}</h3><Chapters episodes={episodes} now={now} onSeek={seek} /></section>
        )}
      </aside>
    </div>
  );
}
