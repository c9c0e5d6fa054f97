/** The transcript's lines in time order and the one playing now, found without walking the whole list. */
import type { TimedText } from './api.js';

/** A line starting up to this much after `now` counts as started: cues are rounded, and a seek lands just before. */
const EARLY = 0.05;

/**
 * The spoken lines of all episodes, sorted by start (done once per analysis, not per time update).
 * @example
 * transcriptLines([{ audio: [{ start: 4, end: 5, text: 'b' }] }, { audio: [{ start: 1, end: 2, text: 'a' }] }]); // a, b
 */
export function transcriptLines(episodes: { audio: TimedText[] }[]): TimedText[] {
  return episodes.flatMap((e) => e.audio).sort((a, b) => a.start - b.start);
}

/**
 * Index of the line playing at `now` (the last one that started), or -1; `lines` sorted by start. Binary search.
 * @example
 * currentIndex([{start:0,end:2,text:'a'},{start:2,end:4,text:'b'}], 3); // 1
 */
export function currentIndex(lines: { start: number }[], now: number): number {
  let lo = 0;
  let hi = lines.length;
  // Find the first line that starts after now; the one before it is playing.
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (lines[mid].start <= now + EARLY) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}
