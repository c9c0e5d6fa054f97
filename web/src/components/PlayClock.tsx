/** Where the player is and how long the item plays, as m:ss / m:ss. */
import { clock } from '../format.js';

/**
 * "0:12 / 0:14": the time is never shown past the length (a seek asked for beyond the end lands on it).
 * @example
 * <PlayClock now={12.4} duration={14} />
 */
export function PlayClock({ now, duration }: { now: number; duration: number }) {
  return <span class="muted" data-clock>{clock(duration ? Math.min(now, duration) : now)}{duration ? ` / ${clock(duration)}` : ''}</span>;
}
