/** Stretches of time in seconds, half-open [start, end), and finding one among many in time order. */

/** Anything with a start and an end. */
export interface Span {
  start: number;
  end: number;
}

/**
 * The index of the last span that starts at or before `t` (spans sorted by start), or -1: a binary search.
 * @example
 * lastStartingBy([{ start: 0, end: 5 }, { start: 5, end: 9 }], 6); // 1
 */
export function lastStartingBy(spans: readonly Span[], t: number): number {
  let lo = 0;
  let hi = spans.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (spans[mid]!.start <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}
