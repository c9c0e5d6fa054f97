/** The transcript as timed lines: a click seeks, the line being spoken is marked and kept in view. */
import { useEffect, useRef } from 'preact/hooks';
import type { TimedText } from '../api.js';
import { clock } from '../format.js';
import { t } from '../i18n.js';

/**
 * Index of the line playing at `now` (the last one that started), or -1.
 * @example
 * currentIndex([{start:0,end:2,text:'a'},{start:2,end:4,text:'b'}], 3); // 1
 */
export function currentIndex(lines: { start: number }[], now: number): number {
  let found = -1;
  for (let i = 0; i < lines.length; i++) if (lines[i].start <= now + 0.05) found = i;
  return found;
}

/**
 * The transcript list; the current line is marked and scrolled into view inside the list.
 * @example
 * <Transcript lines={lines} now={12.5} onSeek={seek} />
 */
export function Transcript({ lines, now, onSeek }: { lines: TimedText[]; now: number; onSeek: (t: number) => void }) {
  const list = useRef<HTMLOListElement>(null);
  const current = currentIndex(lines, now);
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
  return (
    <ol class="transcript" ref={list} aria-label={t('transcript')}>
      {lines.map((l, i) => (
        <li key={i}>
          <button type="button" class="line" aria-current={i === current ? 'true' : undefined} data-start={l.start} onClick={() => onSeek(l.start)}>
            <span class="time">{clock(l.start)}</span> <span>{l.text}</span>
          </button>
        </li>
      ))}
    </ol>
  );
}
