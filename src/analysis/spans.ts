/** Time spans (seconds, half-open [start, end)) and which episode a timed thing belongs to. */
import { lastStartingBy, type Span } from '../tools/time-spans.js';

export type { Span };

/**
 * The span each item belongs to, by index: the one it overlaps most, so a transcript line belongs to
 * exactly one episode (a cue from 8.000 s to 16 s lies after a cut at 8.022 s, not before it). An item
 * with no length belongs to the span its start lies in; the last span takes its own end. `spans` are in
 * time order and do not overlap, as an item's episodes are: each item looks only at the spans it meets
 * (found by binary search), so 30,000 lines over 4,000 episodes cost no more than their overlaps.
 * @example
 * owningSpans([{ start: 8, end: 16 }], [{ start: 0, end: 8.022 }, { start: 8.022, end: 24 }]); // [1]
 */
export function owningSpans(items: readonly Span[], spans: readonly Span[]): number[] {
  const last = spans.length - 1;
  return items.map((x) => {
    const from = lastStartingBy(spans, x.start);
    let best = -1;
    let bestShared = 0;
    for (let i = Math.max(0, from); i <= last && spans[i]!.start < x.end; i++) {
      const shared = Math.min(x.end, spans[i]!.end) - Math.max(x.start, spans[i]!.start);
      if (shared > bestShared) {
        bestShared = shared;
        best = i;
      }
    }
    if (best >= 0) return best;
    if (from >= 0 && (x.start < spans[from]!.end || from === last)) return from;
    return x.start < (spans[0]?.start ?? 0) ? 0 : last;
  });
}

/**
 * A copy of `x` cut to [start, end).
 * @example
 * clip({ start: 2, end: 20, text: 'x' }, 0, 8); // { start: 2, end: 8, text: 'x' }
 */
export function clip<T extends Span>(x: T, start: number, end: number): T {
  return { ...x, start: Math.max(x.start, start), end: Math.min(x.end, end) };
}

/**
 * Whether a visual entry (what a shot shows) belongs to an episode: it overlaps it by at least half of
 * either. A slide that only runs a few frames into the next episode (a boundary just before its cut)
 * stays with the episode it mostly lies in.
 * @example
 * belongsTo({ start: 0, end: 8 }, { start: 7.25, end: 16 }); // false
 * belongsTo({ start: 0, end: 100 }, { start: 40, end: 60 }); // true
 */
export function belongsTo(x: Span, episode: Span): boolean {
  const shared = Math.min(x.end, episode.end) - Math.max(x.start, episode.start);
  if (shared <= 0) return false;
  return shared >= 0.5 * (x.end - x.start) || shared >= 0.5 * (episode.end - episode.start);
}
