import type { ItemRow } from '../../store/items.js';

/**
 * Why a group's `keep` copy was chosen over the next-best copy: `longest` (the others are parts of it),
 * `higher_resolution`, `higher_bitrate`, or `original` (nothing else told them apart: the copy whose
 * file is dated earlier, else the one indexed first).
 */
export type KeepReason = (typeof KEEP_REASONS)[number];

/**
 * The reasons, in the order they decide.
 * @example
 * z.enum(KEEP_REASONS); // the schema of keep_reason
 */
export const KEEP_REASONS = ['longest', 'higher_resolution', 'higher_bitrate', 'original'] as const;

/**
 * A sentence for each reason, for people reading the group.
 * @example
 * KEEP_MESSAGES.longest; // 'The longest copy: the others show only part of it.'
 */
export const KEEP_MESSAGES: Record<KeepReason, string> = {
  longest: 'The longest copy: the others show only part of it.',
  higher_resolution: 'The copy with the most pixels.',
  higher_bitrate: 'The copy with the most data per second: the others are re-encoded more strongly.',
  original: 'The copies look the same; this one is older (or was indexed first), so it is likely the original.',
};

type Ranked = Pick<ItemRow, 'pk' | 'duration' | 'width' | 'height' | 'size' | 'captured_at'>;

// A re-encode or remux can differ from its source by a frame or two, and a trim by less than a second
// is no part-of-the-whole: only a clear difference in length counts.
const longer = (a: Ranked, b: Ranked): number => {
  const da = a.duration ?? 0;
  const db = b.duration ?? 0;
  return Math.abs(da - db) > Math.max(1, 0.05 * Math.max(da, db)) ? db - da : 0;
};
const pixels = (i: Ranked): number => (i.width ?? 0) * (i.height ?? 0);
const bitrate = (i: Ranked): number => (i.size ?? 0) / Math.max(i.duration ?? 0, 1);
const sharper = (a: Ranked, b: Ranked): number => pixels(b) - pixels(a);
// Containers and muxers move a few bytes; 2% more bytes a second is no better picture.
const denser = (a: Ranked, b: Ranked): number => {
  const ra = bitrate(a);
  const rb = bitrate(b);
  return Math.abs(ra - rb) > 0.02 * Math.max(ra, rb) ? rb - ra : 0;
};
// A re-encode is written after its source, so its file date is later; items with no date come last.
const older = (a: Ranked, b: Ranked): number => {
  const ta = a.captured_at ? Date.parse(a.captured_at) : Infinity;
  const tb = b.captured_at ? Date.parse(b.captured_at) : Infinity;
  return (ta === tb ? 0 : ta < tb ? -1 : 1) || a.pk - b.pk;
};

const RULES: Record<KeepReason, (a: Ranked, b: Ranked) => number> = { longest: longer, higher_resolution: sharper, higher_bitrate: denser, original: older };

/**
 * Orders copies best first: the longest (a trimmed part never ranks above its whole), then the most
 * pixels, then the most bytes a second, then the original (earlier file date, else indexed first).
 * @example
 * rows.sort(betterCopy); // rows[0] is the copy to keep
 */
export function betterCopy(a: Ranked, b: Ranked): number {
  for (const reason of KEEP_REASONS) {
    const d = RULES[reason](a, b);
    if (d) return d;
  }
  return 0;
}

/**
 * The rule that put `kept` before `next` (the runner-up of a group sorted by {@link betterCopy}).
 * @example
 * keepReason({ pk: 1, duration: 10, … }, { pk: 2, duration: 5, … }); // 'longest'
 */
export function keepReason(kept: Ranked, next: Ranked): KeepReason {
  return KEEP_REASONS.find((reason) => RULES[reason](kept, next) < 0) ?? 'original';
}
