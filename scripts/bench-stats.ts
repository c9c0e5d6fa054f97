/**
 * Small statistics the benchmarks share.
 */

/**
 * The median of some numbers (the mean of the two middle ones for an even count); NaN for none.
 * @example
 * median([3, 1, 2]); // 2
 * median([4, 1, 2, 3]); // 2.5
 */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}
