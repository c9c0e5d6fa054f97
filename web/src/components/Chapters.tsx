/** Episodes as chapters: marks on a timeline under the player and a list; both seek. */
import { clock } from '../format.js';
import { t } from '../i18n.js';
import { currentIndex } from '../transcript-lines.js';

/** What a chapter needs: an item's episode, or a chapter of a share link (no picture). */
export interface Chapter { start: number; end: number; summary: string; title: string; thumbnail_url?: string | null }

/** The chapter's title as the server names it (its summary, else what it is: "Voice memo, part 1"), shortened. */
function label(e: Chapter): string {
  return e.title.length > 90 ? `${e.title.slice(0, 88)}…` : e.title;
}

/**
 * Chapter marks on a bar under the player, with the played part; a mark seeks.
 * @example
 * <Timeline episodes={episodes} duration={24} now={8} onSeek={seek} />
 */
export function Timeline({ episodes, duration, now, onSeek }: { episodes: Chapter[]; duration: number; now: number; onSeek: (t: number) => void }) {
  if (!duration || !episodes.length) return null;
  return (
    // biome-ignore lint/a11y/useSemanticElements: a row of chapter buttons on a timeline; a fieldset would add a form section's border and legend
    <div class="timeline" role="group" aria-label={t('timeline')}>
      <span class="played" style={{ width: `${Math.min(100, (now / duration) * 100)}%` }} />
      {episodes.map((e, i) => (
        <button key={i} type="button" class="mark" style={{ left: `${(e.start / duration) * 100}%` }}
          title={`${clock(e.start)} ${label(e)}`} aria-label={`${t('chapters')} ${i + 1}: ${clock(e.start)}`} onClick={() => onSeek(e.start)} />
      ))}
    </div>
  );
}

/**
 * The chapter list (thumbnail, time range, summary); the current chapter is marked; a click, Enter or
 * Space seeks (they are buttons). `lang`: the language the titles are in, when the page should say it.
 * @example
 * <Chapters episodes={episodes} now={8} onSeek={seek} />
 */
export function Chapters({ episodes, now, onSeek, lang }: { episodes: Chapter[]; now: number; onSeek: (t: number) => void; lang?: string }) {
  const current = currentIndex(episodes, now);
  return (
    <ol class="chapters" lang={lang}>
      {episodes.map((e, i) => (
        <li key={i}>
          <button type="button" class="line" aria-current={i === current ? 'true' : undefined} data-start={e.start} onClick={() => onSeek(e.start)}>
            {e.thumbnail_url && <img src={e.thumbnail_url} alt="" loading="lazy" />}
            <span class="time">{clock(e.start)}–{clock(e.end)}</span> <span>{label(e)}</span>
          </button>
        </li>
      ))}
    </ol>
  );
}

/**
 * Moves the focus into the chapter list (the current chapter, else the first): the way past the
 * player's own controls, which sit between the player and everything after it in the tab order.
 * @example
 * <button onClick={() => focusChapters(list.current)}>Skip to chapters</button>
 */
export function focusChapters(list: HTMLElement | null): void {
  const target = list?.querySelector<HTMLElement>('.line[aria-current="true"]') ?? list?.querySelector<HTMLElement>('.line');
  target?.focus();
}
