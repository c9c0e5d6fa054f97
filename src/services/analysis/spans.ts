/** Time spans (seconds, half-open [start, end)) and which episode a timed thing belongs to. */

/** Anything with a start and an end. */
export interface Span {
  start: number;
  end: number;
}

/**
 * Whether two half-open spans share time: text that ends exactly where an episode starts belongs to the one before.
 * @example
 * overlaps({ start: 0, end: 8 }, { start: 8, end: 16 }); // false
 */
export function overlaps(a: Span, b: Span): boolean {
  return a.start < b.end && a.end > b.start;
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
