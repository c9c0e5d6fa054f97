/**
 * The transcript as timed lines: a click seeks, the line being spoken is marked and kept in view. A time
 * update finds the line by binary search and redraws nothing unless the line changed, and then only the
 * two rows whose mark moved. Where more than one voice speaks, a line that starts a turn names its speaker
 * ("Speaker 2"), in a colour of that speaker's own.
 */
import { Component } from 'preact';
import { useCallback, useEffect, useMemo, useRef } from 'preact/hooks';
import type { TimedText } from '../api.js';
import { clock } from '../format.js';
import { t } from '../i18n.js';
import { currentIndex } from '../transcript-lines.js';

interface LineProps { line: TimedText; current: boolean; seek: (to: number) => void; /** The speaker to name: this line starts a turn. */ speaker: number | null; /** Their words ("Dad", "Speaker 2"). */ name: string | null }

/** Speaker colours cycle after this many (styles.css: .speaker.s1 … .s6). */
const SPEAKER_COLOURS = 6;

/** One row; redrawn only when its line or its mark changes (a class for shouldComponentUpdate, without preact/compat). */
class Line extends Component<LineProps> {
  override shouldComponentUpdate(next: LineProps): boolean {
    return next.line !== this.props.line || next.current !== this.props.current || next.seek !== this.props.seek || next.speaker !== this.props.speaker || next.name !== this.props.name;
  }

  override render({ line, current, seek, speaker, name }: LineProps) {
    return (
      <li>
        <button type="button" class="line" aria-current={current ? 'true' : undefined} data-start={line.start} data-speaker={line.speaker ?? undefined} onClick={() => seek(line.start)}>
          <span class="time">{clock(line.start)}</span>{' '}
          {speaker !== null && <span class={`speaker s${((speaker - 1) % SPEAKER_COLOURS) + 1}`}>{name ?? t('speakerLabel', speaker)}</span>}
          <span>{line.text}</span>
        </button>
      </li>
    );
  }
}

/**
 * The transcript list (lines sorted by start); the current line is marked and scrolled into view inside the list.
 * @example
 * <Transcript lines={lines} now={12.5} onSeek={seek} names={new Map([[1, 'Dad']])} />
 */
export function Transcript({ lines, now, onSeek, names }: { lines: TimedText[]; now: number; onSeek: (t: number) => void; /** Speakers' words by number (the analysis's labels); default "Speaker N". */ names?: ReadonlyMap<number, string> }) {
  const list = useRef<HTMLOListElement>(null);
  const current = currentIndex(lines, now);
  // The caller's seek is a new closure on each render; the rows get one that stays, so they can skip redraws.
  const latestSeek = useRef(onSeek);
  latestSeek.current = onSeek;
  const seek = useCallback((to: number) => latestSeek.current(to), []);
  // The same row elements while the line is the same: Preact skips an element it has seen, so a time update costs nothing here.
  const named = useMemo(() => turnStarts(lines), [lines]);
  const rows = useMemo(() => lines.map((l, i) => <Line key={i} line={l} current={i === current} seek={seek} speaker={named[i] ?? null} name={named[i] != null ? (names?.get(named[i]!) ?? null) : null} />), [lines, current, seek, named, names]);
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

/** For each line, its speaker where it starts a turn (the first line, or another speaker than the line before); none with one voice. */
function turnStarts(lines: readonly TimedText[]): (number | null)[] {
  const voices = new Set(lines.map((l) => l.speaker).filter((s) => s != null));
  if (voices.size < 2) return lines.map(() => null);
  return lines.map((l, i) => (l.speaker != null && (i === 0 || lines[i - 1]!.speaker !== l.speaker) ? l.speaker : null));
}
