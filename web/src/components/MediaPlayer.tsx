/**
 * A `<video>` or `<audio>` that opens at a moment and starts playing: the person clicked a result or a
 * link to get here, so that click is the gesture that allows sound. When the browser still refuses (a
 * link opened in a new tab, a strict autoplay setting), a big Play button says so instead of a silent,
 * paused player. Audio shows its waveform picture above the controls.
 */
import type { Ref } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { t } from '../i18n.js';

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
}

/**
 * The player, focused once it is there (keyboard users land on it, Space plays and pauses).
 * @example
 * <MediaPlayer type="video" src={src} title="Beach" start={17} mediaRef={media} onTime={setNow} />
 */
export function MediaPlayer({ type, src, title, picture, start, mediaRef, onTime, onEnded }: MediaPlayerProps) {
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

  const opened = (e: Event) => {
    const el = e.currentTarget as HTMLMediaElement;
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
      <video class="media" {...props} />
      {big}
    </div>
  );
}
