/**
 * A `<video>` or `<audio>` that opens at a moment and starts playing: the person clicked a result or a
 * link to get here, so that click is the gesture that allows sound. When the browser still refuses (a
 * link opened in a new tab, a strict autoplay setting), a big Play button says so instead of a silent,
 * paused player. Audio shows its waveform picture above the controls. A video shows the transcript's lines
 * as captions (a WebVTT <track> made from them).
 */
import type { Ref } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { TimedText } from '../api.js';
import { t } from '../i18n.js';
import { webVtt } from '../transcript-lines.js';
import { languageName } from './TranscriptLanguage.js';

/** One ref type for <video> and <audio>: only HTMLMediaElement members are used. */
export type MediaElement = HTMLMediaElement;

/**
 * Starts `el` and reports whether the browser refused it (NotAllowedError); other refusals (a newer
 * load interrupting this one) are not the person's business.
 * @example
 * startPlaying(video).then((refused) => refused && showPlayButton());
 */
export function startPlaying(el: HTMLMediaElement): Promise<boolean> {
  return el.play().then(
    () => false,
    (e: unknown) => e instanceof DOMException && e.name === 'NotAllowedError',
  );
}

/** What the player needs: the item's kind, signed source, title, optional picture (audio) and moment. */
export interface MediaPlayerProps {
  type: 'video' | 'audio';
  src: string;
  title: string;
  /** Audio only: the waveform picture the server made as the item's thumbnail. */
  picture?: string | null;
  /** Seconds to open at. */
  start: number;
  /** The element, for the view's own seeking (transcript, chapters). */
  mediaRef: Ref<MediaElement>;
  onTime: (seconds: number) => void;
  /** Told true when it plays to its end, false when it plays or seeks again. */
  onEnded?: (ended: boolean) => void;
  /** Told the length the player itself plays (the file's, which may differ from what the analysis measured). */
  onDuration?: (seconds: number) => void;
  /** The lines to show as captions on a video, and their language (null when unknown). */
  captions?: { lines: TimedText[]; language: string | null };
}

/**
 * A blob: URL of the lines as WebVTT, made again when they change and let go when they are replaced; null
 * without lines. The page's content security policy allows media (and so tracks) from blob: URLs.
 */
function useCaptionsUrl(lines: TimedText[] | undefined): string | null {
  const url = useMemo(() => (lines?.length ? URL.createObjectURL(new Blob([webVtt(lines)], { type: 'text/vtt' })) : null), [lines]);
  useEffect(() => () => {
    if (url) URL.revokeObjectURL(url);
  }, [url]);
  return url;
}

/**
 * The captions track of a video, shown: a new one for new lines (keyed by their URL: another transcript
 * language), switched on at once, since `default` only counts when the video first chooses its tracks.
 */
function Captions({ url, language }: { url: string; language: string | null }) {
  const ref = useRef<HTMLTrackElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.track.mode = 'showing';
  }, []);
  const code = language && language !== 'und' ? language : undefined;
  return <track ref={ref} kind="subtitles" src={url} srcLang={code} label={language ? languageName(language) : t('transcript')} default />;
}

/**
 * The player, focused once it is there (keyboard users land on it, Space plays and pauses).
 * @example
 * <MediaPlayer type="video" src={src} title="Beach" start={17} mediaRef={media} onTime={setNow} />
 */
export function MediaPlayer({ type, src, title, picture, start, mediaRef, onTime, onEnded, onDuration, captions }: MediaPlayerProps) {
  const [refused, setRefused] = useState(false);
  const own = useRef<MediaElement | null>(null);
  const playButton = useRef<HTMLButtonElement>(null);
  const setRef = (el: MediaElement | null) => {
    own.current = el;
    if (typeof mediaRef === 'function') mediaRef(el);
    else if (mediaRef) mediaRef.current = el;
  };

  useEffect(() => {
    own.current?.focus();
  }, []);
  useEffect(() => {
    if (refused) playButton.current?.focus();
  }, [refused]);

  const captionsUrl = useCaptionsUrl(type === 'video' ? captions?.lines : undefined);
  const measured = (e: Event) => {
    const d = (e.currentTarget as HTMLMediaElement).duration;
    if (Number.isFinite(d) && d > 0) onDuration?.(d);
  };
  const opened = (e: Event) => {
    const el = e.currentTarget as HTMLMediaElement;
    measured(e);
    if (start) el.currentTime = start;
    void startPlaying(el).then(setRefused);
  };
  const playNow = () => {
    const el = own.current;
    if (!el) return;
    void startPlaying(el).then((no) => {
      setRefused(no);
      if (!no) el.focus();
    });
  };
  const props = {
    ref: setRef, src, controls: true, preload: 'metadata' as const, 'aria-label': title,
    onLoadedMetadata: opened,
    onDurationChange: measured,
    onPlay: () => { setRefused(false); onEnded?.(false); },
    onEnded: () => onEnded?.(true),
    onTimeUpdate: (e: Event) => onTime((e.currentTarget as HTMLMediaElement).currentTime),
    onSeeked: (e: Event) => { const el = e.currentTarget as HTMLMediaElement; onTime(el.currentTime); onEnded?.(el.ended); },
  };
  const big = refused && (
    <button type="button" ref={playButton} class="bigplay primary" onClick={playNow}>
      <span aria-hidden="true">▶</span> {t('playNow')}
    </button>
  );
  if (type === 'audio') {
    return (
      <div class="media-box audio-box">
        {picture ? <img class="wave" src={picture} alt={t('waveform')} /> : <span class="wave ph" />}
        {big}
        <audio class="media audio" {...props} />
      </div>
    );
  }
  return (
    <div class="media-box">
      <video class="media" {...props}>{captionsUrl && <Captions key={captionsUrl} url={captionsUrl} language={captions?.language ?? null} />}</video>
      {big}
    </div>
  );
}
