/**
 * The transcript as timed lines: a click seeks, the line being spoken is marked and kept in view. A time
 * update finds the line by binary search and redraws nothing unless the line changed, and then only the
 * two rows whose mark moved.
 */
import { Component } from 'preact';
import { useCallback, useEffect, useMemo, useRef } from 'preact/hooks';
import type { TimedText } from '../api.js';
import { clock } from '../format.js';
import { t } from '../i18n.js';
import { currentIndex } from '../transcript-lines.js';

interface LineProps { line: TimedText; current: boolean; seek: (to: number) => void }

/** One row; redrawn only when its line or its mark changes (a class for shouldComponentUpdate, without preact/compat). */
class Line extends Component<LineProps> {
  override shouldComponentUpdate(next: LineProps): boolean {
    return next.line !== this.props.line || next.current !== this.props.current || next.seek !== this.props.seek;
  }

  override render({ line, current, seek }: LineProps) {
    return (
      <li>
        <button type="button" class="line" aria-current={current ? 'true' : undefined} data-start={line.start} onClick={() => seek(line.start)}>
          <span class="time">{clock(line.start)}</span> <span>{line.text}</span>
        </button>
      </li>
    );
  }
}

/**
 * The transcript list (lines sorted by start); the current line is marked and scrolled into view inside the list.
 * @example
 * <Transcript lines={lines} now={12.5} onSeek={seek} />
 */
export function Transcript({ lines, now, onSeek }: { lines: TimedText[]; now: number; onSeek: (t: number) => void }) {
  const list = useRef<HTMLOListElement>(null);
  const current = currentIndex(lines, now);
  // The caller's seek is a new closure on each render; the rows get one that stays, so they can skip redraws.
  const latestSeek = useRef(onSeek);
  latestSeek.current = onSeek;
  const seek = useCallback((to: number) => latestSeek.current(to), []);
  // The same row elements while the line is the same: Preact skips an element it has seen, so a time update costs nothing here.
  const rows = useMemo(() => lines.map((l, i) => <Line key={i} line={l} current={i === current} seek={seek} />), [lines, current, seek]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `current` is the trigger: the list scrolls when the line being said changes.
  useEffect(() => {
    const el = list.current?.querySelector<HTMLElement>('[aria-current="true"]');
    const box = list.current;
    if (!el || !box) return;
    // Scroll the list only, never the page: the reader may be looking elsewhere.
    if (el.offsetTop < box.scrollTop || el.offsetTop + el.offsetHeight > box.scrollTop + box.clientHeight) {
      box.scrollTop = el.offsetTop - box.clientHeight / 3;
    }
  }, [current]);
  if (!lines.length) return <p class="muted">{t('noTranscript')}</p>;
  return <ol class="transcript" ref={list} aria-label={t('transcript')}>{rows}</ol>;
}
