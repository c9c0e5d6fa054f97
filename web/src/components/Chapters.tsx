/** Episodes as chapters: marks on a timeline under the player and a list; both seek. */
import type { Episode } from '../api.js';
import { clock } from '../format.js';
import { t } from '../i18n.js';
import { currentIndex } from './Transcript.js';

function label(e: Episode): string {
  const s = e.summary.length > 90 ? `${e.summary.slice(0, 88)}…` : e.summary;
  return s || clock(e.start);
}

/**
 * Chapter marks on a bar under the player, with the played part; a mark seeks.
 * @example
 * <Timeline episodes={episodes} duration={24} now={8} onSeek={seek} />
 */
export function Timeline({ episodes, duration, now, onSeek }: { episodes: Episode[]; duration: number; now: number; onSeek: (t: number) => void }) {
  if (!duration || !episodes.length) return null;
  return (
    <div class="timeline" role="group" aria-label={t('timeline')}>
      <span class="played" style={{ width: `${Math.min(100, (now / duration) * 100)}%` }} />
      {episodes.map((e) => (
        <button key={e.episode_id} type="button" class="mark" style={{ left: `${(e.start / duration) * 100}%` }}
          title={`${clock(e.start)} ${label(e)}`} aria-label={`${t('chapters')} ${e.episode_id + 1}: ${clock(e.start)}`} onClick={() => onSeek(e.start)} />
      ))}
    </div>
  );
}

/**
 * The chapter list (thumbnail, time range, summary); the current chapter is marked; a click seeks.
 * @example
 * <Chapters episodes={episodes} now={8} onSeek={seek} />
 */
export function Chapters({ episodes, now, onSeek }: { episodes: Episode[]; now: number; onSeek: (t: number) => void }) {
  const current = currentIndex(episodes, now);
  return (
    <ol class="chapters">
      {episodes.map((e, i) => (
        <li key={e.episode_id}>
          <button type="button" class="line" aria-current={i === current ? 'true' : undefined} onClick={() => onSeek(e.start)}>
            {e.thumbnail_url && <img src={e.thumbnail_url} alt="" loading="lazy" />}
            <span class="time">{clock(e.start)}–{clock(e.end)}</span> <span>{label(e)}</span>
          </button>
        </li>
      ))}
    </ol>
  );
}
