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

/** A time as WebVTT writes it: hh:mm:ss.mmm. */
function vttTime(seconds: number): string {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}.${pad(ms % 1000, 3)}`;
}

/**
 * The lines as a WebVTT file, for the player's <track>: the browser shows them as captions on the video.
 * A line's text is escaped (`&`, `<`, `-->`, blank lines cannot stand in a cue); one without length gets a
 * moment to be read.
 * @example
 * webVtt([{ start: 1, end: 3.5, text: 'Good morning.' }]); // 'WEBVTT\n\n00:00:01.000 --> 00:00:03.500\nGood morning.\n'
 */
export function webVtt(lines: TimedText[]): string {
  const cues = lines.map((l) => {
    const text = l.text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/-->/g, '→').replace(/\n\s*\n+/g, '\n').trim();
    return `${vttTime(l.start)} --> ${vttTime(Math.max(l.end, l.start + 1))}\n${text}\n`;
  });
  return ['WEBVTT\n', ...cues].join('\n');
}
