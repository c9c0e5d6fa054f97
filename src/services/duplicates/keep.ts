import type { ItemRow } from '../../store/items.js';

/**
 * Why a group's `keep` copy was chosen over the next-best copy. Videos: `longest` (the others are parts of
 * it), `higher_resolution`, `higher_bitrate`, or `original` (nothing else told them apart: the copy whose file
 * is dated earlier, else the one indexed first). Photos: `capture_metadata` (it alone states when or where it
 * was taken), `higher_resolution`, `camera_format` (the camera's format, where the other is an export), or
 * `original`.
 */
export type KeepReason = (typeof KEEP_REASONS)[number];

/**
 * Every reason (videos and photos).
 * @example
 * z.enum(KEEP_REASONS); // the schema of keep_reason
 */
export const KEEP_REASONS = ['longest', 'higher_resolution', 'higher_bitrate', 'original', 'capture_metadata', 'camera_format'] as const;

/** The reasons that decide between two videos, in order. */
const VIDEO_REASONS: readonly KeepReason[] = ['longest', 'higher_resolution', 'higher_bitrate', 'original'];
/** The reasons that decide between two photos, in order: a photo's date and place are what a copy loses first. */
const PHOTO_REASONS: readonly KeepReason[] = ['capture_metadata', 'higher_resolution', 'camera_format', 'original'];

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
  capture_metadata: 'The photo that says when and where it was taken: the other copies lost that.',
  camera_format: 'The photo in the camera’s own format: the others are exports of it.',
};

/** What decides between copies: the item's row and the format of its file (its extension, lower case). */
export type Ranked = Pick<ItemRow, 'pk' | 'type' | 'duration' | 'width' | 'height' | 'size' | 'captured_at' | 'captured_at_source' | 'latitude'> & { format: string | null };

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
/** What a photo states of its taking: a recorded date and a place, one point each. */
const stated = (i: Ranked): number => (i.captured_at_source === 'metadata' ? 1 : 0) + (i.latitude !== null ? 1 : 0);
const moreStated = (a: Ranked, b: Ranked): number => stated(b) - stated(a);
/** Formats cameras write (phones' HEIC, raw files, JPEG); what editors and messengers export ranks below. */
const CAMERA_FORMATS: Record<string, number> = { heic: 2, heif: 2, dng: 2, cr2: 2, cr3: 2, nef: 2, arw: 2, orf: 2, rw2: 2, jpg: 1, jpeg: 1 };
const cameraRank = (i: Ranked): number => (i.format ? (CAMERA_FORMATS[i.format] ?? 0) : 0);
const fromCamera = (a: Ranked, b: Ranked): number => cameraRank(b) - cameraRank(a);

const RULES: Record<KeepReason, (a: Ranked, b: Ranked) => number> = {
  longest: longer, higher_resolution: sharper, higher_bitrate: denser, original: older, capture_metadata: moreStated, camera_format: fromCamera,
};

const reasonsFor = (a: Ranked): readonly KeepReason[] => (a.type === 'image' ? PHOTO_REASONS : VIDEO_REASONS);

/**
 * Orders copies best first. Videos: the longest (a trimmed part never ranks above its whole), then the most
 * pixels, then the most bytes a second, then the original (earlier file date, else indexed first). Photos:
 * the one that states its date and place, then the most pixels, then the camera's format, then the original.
 * @example
 * rows.sort(betterCopy); // rows[0] is the copy to keep
 */
export function betterCopy(a: Ranked, b: Ranked): number {
  for (const reason of reasonsFor(a)) {
    const d = RULES[reason](a, b);
    if (d) return d;
  }
  return 0;
}

/**
 * The rule that put `kept` before `next` (the runner-up of a group sorted by {@link betterCopy}).
 * @example
 * keepReason({ pk: 1, type: 'video', duration: 10, … }, { pk: 2, type: 'video', duration: 5, … }); // 'longest'
 */
export function keepReason(kept: Ranked, next: Ranked): KeepReason {
  return reasonsFor(kept).find((reason) => RULES[reason](kept, next) < 0) ?? 'original';
}

/**
 * Whether the kept copy holds everything a copy has, so that deleting the copy loses nothing: it shows all
 * of it (`shownByKept`, the share of the copy the kept one shows), has at least its pixels, and (photos)
 * states at least what it states of its date and place.
 * @example
 * keptHoldsAll(original, trimmedCopy, 1); // true
 * keptHoldsAll(trimA, trimB, 0.5);        // false: half of trimB is not in trimA
 */
export function keptHoldsAll(kept: Ranked, copy: Ranked, shownByKept: number): boolean {
  if (shownByKept < 0.95) return false;
  if (pixels(kept) < pixels(copy) * 0.98) return false;
  return kept.type !== 'image' || ((kept.captured_at_source === 'metadata' || copy.captured_at_source !== 'metadata') && (kept.latitude !== null || copy.latitude === null));
}
