/**
 * Whether two items are copies of one another: a video and its re-encoded, rescaled or trimmed copy show the
 * same frames in the same order (their frame sequences line up at one offset, or a few for a copy with parts
 * cut out); two photos have near-identical fingerprints. Videos that only look alike (slides of one template
 * with other words) differ in the frames' finer structure and in their on-screen words.
 */
import { popcount, printSimilarity, type FramePrint } from '../../media/perceptual.js';

/** What is compared of an item. */
export interface ItemLook {
  itemPk: number;
  kind: 'video' | 'image';
  duration: number;
  /** Frames a second of `hashes` (videos). */
  fps: number;
  /** The frame sequence's 64-bit hashes as (high, low) pairs; empty for photos. */
  hashes: Uint32Array;
  /** A photo's fingerprint; null for videos. */
  photo: FramePrint | null;
  /** The words read on screen in the item (OCR), lower case. */
  words: Set<string>;
}

/** A verified pair: how alike the frames that match are (0..1) and how much of each item they cover. */
export interface PairMatch {
  similarity: number;
  overlapA: number;
  overlapB: number;
}

/** Differing bits up to which two frames count as the same frame. Copies differ in 0–4, a slide of the same template in 12 and more. */
export const SAME_FRAME_BITS = 10;
/** Two photos at least this alike (printSimilarity) are copies. */
export const SAME_PHOTO = 0.8;
/** The share of the shorter video the longer one must show, in order, for a pair. */
export const MIN_OVERLAP = 0.6;
/** Video frames are compared this far apart (seconds). */
export const SAMPLE_SECONDS = 0.5;

/**
 * Whether a frame hash says little: near-uniform frames (black, a flat colour) have almost all bits alike and
 * would match every other such frame.
 * @example
 * isFlat(0, 0); // true
 */
export function isFlat(hi: number, lo: number): boolean {
  const ones = popcount(hi) + popcount(lo);
  return ones < 8 || ones > 56;
}

function distance(a: Uint32Array, i: number, b: Uint32Array, j: number): number {
  return popcount((a[2 * i]! ^ b[2 * j]!) >>> 0) + popcount((a[2 * i + 1]! ^ b[2 * j + 1]!) >>> 0);
}

/** Word overlap (Jaccard) of two items' on-screen text, or null when either says too little to tell. */
function wordOverlap(a: Set<string>, b: Set<string>): number | null {
  if (a.size < 3 || b.size < 3) return null;
  let shared = 0;
  for (const w of a) if (b.has(w)) shared++;
  return shared / (a.size + b.size - shared);
}

/** Meetings binned by their offset (0.2 s bins). */
function offsetBins(offsets: readonly number[]): Map<number, number[]> {
  const bins = new Map<number, number[]>();
  for (const o of offsets) {
    const key = Math.round(o / 0.2);
    const bin = bins.get(key);
    if (bin) bin.push(o);
    else bins.set(key, [o]);
  }
  return bins;
}

/**
 * How many meetings agree on one offset (the largest 0.2 s bin): a copy's frames meet the original's at
 * one offset again and again, chance meetings scatter.
 * @example
 * agreeingMeetings([3.3, 3.3, 3.4, -12]); // 3
 */
export function agreeingMeetings(offsets: readonly number[]): number {
  let most = 0;
  for (const bin of offsetBins(offsets).values()) most = Math.max(most, bin.length);
  return most;
}

/** The offsets (seconds, B minus A) that most candidate frames agree on, up to three, each the median of its bin. */
function likelyOffsets(offsets: number[]): number[] {
  const bins = offsetBins(offsets);
  // A lone meeting is chance, unless there are only a few at all (a still shot meets its copy once).
  const least = offsets.length < 4 ? 1 : 2;
  return [...bins.values()]
    .filter((b) => b.length >= least)
    .sort((x, y) => y.length - x.length)
    .slice(0, 3)
    .map((b) => b.sort((x, y) => x - y)[b.length >> 1]!);
}

/**
 * Compares two videos at the offsets their candidate frames suggest: every half second of the shorter, the
 * frame of the longer at that offset (± one frame) must be the same frame. Null when they are no copies.
 * @example
 * compareVideos(original, trimmedCopy, [3.3, 3.3, 3.4]); // { similarity: 0.98, overlapA: 1, overlapB: 0.7 }
 */
export function compareVideos(a: ItemLook, b: ItemLook, offsets: number[]): PairMatch | null {
  // A is the shorter: its share decides.
  if (a.duration > b.duration) {
    const m = compareVideos(b, a, offsets.map((o) => -o));
    return m && { similarity: m.similarity, overlapA: m.overlapB, overlapB: m.overlapA };
  }
  const words = wordOverlap(a.words, b.words);
  if (words !== null && words < 0.3) return null;
  const framesA = a.hashes.length / 2;
  const framesB = b.hashes.length / 2;
  const step = Math.max(1, Math.round(a.fps * SAMPLE_SECONDS));
  const best = new Map<number, number>();
  const aligned = likelyOffsets(offsets);
  let counted = 0;
  for (let i = 0; i < framesA; i += step) {
    if (isFlat(a.hashes[2 * i]!, a.hashes[2 * i + 1]!)) continue;
    counted++;
    for (const d of aligned) {
      const j = Math.round((i / a.fps + d) * b.fps);
      for (let k = Math.max(0, j - 1); k <= Math.min(framesB - 1, j + 1); k++) {
        const bits = distance(a.hashes, i, b.hashes, k);
        if (bits <= SAME_FRAME_BITS && bits < (best.get(i) ?? Infinity)) best.set(i, bits);
      }
    }
  }
  if (counted === 0 || best.size / counted < MIN_OVERLAP) return null;
  const similarity = [...best.values()].reduce((s, bits) => s + (1 - bits / 64), 0) / best.size;
  const matchedSeconds = best.size * step / a.fps;
  return { similarity, overlapA: best.size / counted, overlapB: Math.min(1, matchedSeconds / Math.max(b.duration, 1e-9)) };
}

/**
 * Compares two photos by their fingerprints.
 * @example
 * comparePhotos(photo, smallerCopy); // { similarity: 0.97, overlapA: 1, overlapB: 1 }
 */
export function comparePhotos(a: ItemLook, b: ItemLook): PairMatch | null {
  if (!a.photo || !b.photo) return null;
  const similarity = printSimilarity(a.photo, b.photo);
  return similarity >= SAME_PHOTO ? { similarity, overlapA: 1, overlapB: 1 } : null;
}
