/**
 * The player for one item: the signed source in <video>/<audio>, playing from `?t=` as soon as it can;
 * a photo in the picture viewer instead (no clock, timeline or chapters). Transcript (and captions on the
 * video), chapters (list and timeline marks), on-screen text, summaries, tags, details with rename, a link to
 * the moment, "More like this" at the current time and sharing. An item with subtitles in the page's
 * language opens on them, its summaries and chapters told from them; text in another language is marked as such.
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { Chapters, focusChapters, Timeline } from '../components/Chapters.js';
import { ItemDetails } from '../components/ItemDetails.js';
import { MediaPlayer, startPlaying, type MediaElement } from '../components/MediaPlayer.js';
import { PhotoViewer } from '../components/PhotoViewer.js';
import { SharePanel } from '../components/SharePanel.js';
import { Transcript } from '../components/Transcript.js';
import { TranscriptLanguage } from '../components/TranscriptLanguage.js';
import { SpeechNotice } from '../components/SpeechNotice.js';
import { useSession } from '../context.js';
import { ownMedia, stripFragment } from '../format.js';
import { t, useLang } from '../i18n.js';
import { PlayClock } from '../components/PlayClock.js';
import { useLoad } from '../load.js';
import { likeParams } from '../picture-query.js';
import { href } from '../router.js';
import { transcriptLines } from '../transcript-lines.js';

/** "More like this": a search for moments that look like this one at `at` seconds. */
function MoreLike({ collection, mediaId, at }: { collection: string; mediaId: string; at: number }) {
  return <a class="button" data-more-like href={href('c', collection, 'search', likeParams(mediaId, at))}>{t('moreLike')}</a>;
}

/**
 * The player view for one item, started at `start` seconds.
 * @example
 * <Player collection="trips" mediaId="clip" pub={false} start={42} />
 */
export function Player({ collection, mediaId, pub, start }: { collection: string; mediaId: string; pub: boolean; start: number }) {
  const { api, me, notify } = useSession();
  const pageLang = useLang();
  const item = useLoad(() => api.item(collection, mediaId, pub), [api, collection, mediaId, pub]);
  // The subtitle language chosen for the transcript list; until one is, the page's language when the item has
  // it (known once the first answer lists the item's languages), else the transcript.
  const [shown, setShown] = useState<{ mediaId: string; code: string } | null>(null);
  const [tracks, setTracks] = useState<{ mediaId: string; languages: string[] } | null>(null);
  const known = tracks?.mediaId === mediaId ? tracks.languages : [];
  const pageTrack = known.includes(pageLang) && known[0] !== pageLang ? pageLang : undefined;
  const language = shown?.mediaId === mediaId ? shown.code : pageTrack;
  const analysis = useLoad(() => api.analysis(collection, mediaId, pub, language), [api, collection, mediaId, pub, language]);
  const listed = analysis.value?.subtitle_languages;
  useEffect(() => {
    if (listed) setTracks((kept) => (kept?.mediaId === mediaId ? kept : { mediaId, languages: listed }));
  }, [listed, mediaId]);
  // The length the player plays, once it knows (a file may play longer than its picture and sound last).
  const [played, setPlayed] = useState<{ mediaId: string; seconds: number } | null>(null);
  const media = useRef<MediaElement>(null);
  const chapterList = useRef<HTMLElement>(null);
  const [now, setNow] = useState(start);
  // Played to its end: a link or share made now starts from the beginning, not at the last frame.
  const [endedItem, setEndedItem] = useState<string | null>(null);
  const ended = endedItem === mediaId;
  // A rename shows at once; reloading the item would hand out a new signed src and restart the player.
  const [renamed, setRenamed] = useState<{ mediaId: string; title: string | null } | null>(null);

  // A new ?t= for the same item (a chapter link, a second search hit) seeks and plays without reloading.
  useEffect(() => {
    const el = media.current;
    if (el && el.readyState >= 1) {
      el.currentTime = start;
      void startPlaying(el);
    }
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
    void startPlaying(el);
  };
  const type = item.value?.type ?? 'video';
  const still = type === 'image';
  // Nothing that belongs to a timeline is drawn until the item says it is not a photo.
  const timed = !!item.value && !still;
  const episodes = timed ? analysis.value?.episodes ?? [] : [];
  // Sorted once per analysis, not on every time update (the transcript searches this order).
  const lines = useMemo(() => transcriptLines(timed ? analysis.value?.episodes ?? [] : []), [timed, analysis.value]);
  // A speaker who is a person of the collection (voices grouped) goes by the person's name; the others are
  // "Speaker 1" in the page's language of the moment.
  const speakerNames = useMemo(() => new Map((analysis.value?.speakers ?? []).filter((s) => s.person_id).map((s) => [s.speaker, s.label])), [analysis.value]);
  const all = analysis.value?.episodes ?? [];
  const onScreen = [...new Set(all.flatMap((e) => e.on_screen_text))];
  const tags = [...new Set(all.flatMap((e) => e.tags))];
  const duration = (played?.mediaId === mediaId ? played.seconds : 0) || analysis.value?.video_duration || item.value?.duration || 0;
  // Summaries and chapter titles are in the language they were told in; the page says so to the browser.
  const told = analysis.value?.summary_language;
  const toldIn = told && told !== 'und' ? told : undefined;
  const title = (renamed?.mediaId === mediaId ? renamed.title : item.value?.title) || mediaId;
  const canEdit = !pub || me.role === 'admin';
  // The moment searched or opened while it is where the player is, else where the person went; 0 once it ended.
  const moment = ended ? 0 : now;
  const copyLink = () => {
    const link = `${location.origin}/${href('c', collection, 'play', mediaId, { t: Math.floor(moment), pub: pub ? 1 : undefined })}`;
    navigator.clipboard?.writeText(link).then(() => notify(t('copied')), () => notify(link));
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
        {playable && still && <PhotoViewer src={item.value?.picture_url || src} original={src} title={title} />}
        {still && !pub && <div class="row wrap"><MoreLike collection={collection} mediaId={mediaId} at={0} /></div>}
        {playable && !still && (
          <div class="media-wrap">
            {/* Before the player in the tab order: its controls come after it, and this skips them. */}
            {episodes.length > 0 && (
              <button type="button" class="skip-inline" onClick={() => focusChapters(chapterList.current)}>{t('skipToChapters')}</button>
            )}
            <MediaPlayer key={mediaId} type={type === 'audio' ? 'audio' : 'video'} src={src} title={title} picture={item.value?.thumbnail_url}
              start={start} mediaRef={media} onTime={setNow} onEnded={(yes) => setEndedItem(yes ? mediaId : null)}
              onDuration={(seconds) => setPlayed({ mediaId, seconds })} captions={{ lines, language: analysis.value?.transcript_language ?? null }} />
          </div>
        )}
        {timed && (
          <>
            <Timeline episodes={episodes} duration={duration} now={now} onSeek={seek} />
            <div class="row wrap">
              <PlayClock now={now} duration={duration} />
              <button type="button" onClick={copyLink}>{t('copyLink')}</button>
              {!pub && <MoreLike collection={collection} mediaId={mediaId} at={now} />}
            </div>
          </>
        )}
        {analysis.value?.video_summary && (
          <section data-summary><h3>{t('summary')}</h3><p lang={toldIn}>{analysis.value.video_summary}</p></section>
        )}
        {tags.length > 0 && (
          <section><h3>{t('tags')}</h3><ul class="tags">{tags.map((x) => <li key={x}>{x}</li>)}</ul></section>
        )}
        {onScreen.length > 0 && (
          <section><h3>{t('onScreen')}</h3><ul class="onscreen">{onScreen.map((x) => <li key={x}>{x}</li>)}</ul></section>
        )}
      </section>
      <aside class="stack">
        {timed && (
          <section aria-labelledby="tr-h">
            <div class="row between wrap"><h3 id="tr-h">{t('transcript')}</h3>
              <TranscriptLanguage languages={analysis.value?.subtitle_languages ?? []} value={analysis.value?.transcript_language ?? ''} onChange={(code) => setShown({ mediaId, code })} />
            </div>
            {analysis.value && !lines.length && <SpeechNotice kind={type === 'audio' ? 'audio' : 'video'} />}
            <Transcript lines={lines} now={now} onSeek={seek} names={speakerNames} />
          </section>
        )}
        {episodes.length > 0 && (
          <section aria-labelledby="ch-h" ref={chapterList}><h3 id="ch-h">{t('chapters')}</h3><Chapters episodes={episodes} now={now} onSeek={seek} lang={toldIn} /></section>
        )}
        {item.value && <ItemDetails collection={collection} item={{ ...item.value, title }} canEdit={canEdit} onRenamed={(x) => setRenamed({ mediaId, title: x })} />}
        {item.value && canEdit && <SharePanel collection={collection} mediaId={mediaId} moment={{ now: moment, ended, opened: start }} still={still} />}
      </aside>
    </div>
  );
}
