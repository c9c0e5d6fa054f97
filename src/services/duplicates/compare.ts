/**
 * Whether two items are copies of one another. A video and its re-encoded, rescaled or trimmed copy show the
 * same frames, in the same colours, in the same order (their frame sequences line up at one offset, or a
 * few for a copy with parts cut out), and where both have them, the same words on screen and the same
 * sound. Frames that show little (a flat colour, a slide with a caption) count little: two slides of one
 * template are told apart by their words and their voices, or not called copies at all. Two photos have
 * near-identical fingerprints and colours.
 */
import { LOOK_BYTES, popcount, printSimilarity, type FramePrint } from '../../media/perceptual.js';
import type { SoundFrames } from '../../media/sound-print.js';
import { soundVerdict, wordsVerdict } from './evidence.js';

/** What is compared of an item. */
export interface ItemLook {
  itemPk: number;
  kind: 'video' | 'image';
  duration: number;
  /** Frames a second of `hashes` (videos). */
  fps: number;
  /** The frame sequence's 64-bit hashes as (high, low) pairs; empty for photos. */
  hashes: Uint32Array;
  /** Each frame's structure and quarter colours (media/perceptual.ts `frameLook`); null for videos indexed before vidx kept them. */
  looks: Uint8Array | null;
  /** The keyframes' prints (videos): what a video without looks is checked against in colour. */
  keyframes: FramePrint[];
  /** A photo's fingerprint; null for videos. */
  photo: FramePrint | null;
  /** The words read on screen in the item (OCR), lower case. */
  words: Set<string>;
  /** The video's sound print (its first half hour); null without sound or for videos indexed before. */
  sound: SoundFrames | null;
}

/** A verified pair: how alike the frames that match are (0..1), how much of each item they cover, and where they line up. */
export interface PairMatch {
  similarity: number;
  overlapA: number;
  overlapB: number;
  /** Seconds to add to a time of A for the same moment in B (0 for photos). */
  offset: number;
}

/** Differing bits up to which two frames count as the same frame. Copies differ in 0–4, a slide of the same template in 12 and more. */
export const SAME_FRAME_BITS = 10;
/** Two photos at least this alike (printSimilarity) are copies. */
export const SAME_PHOTO = 0.8;
/** The share of the shorter video the longer one must show, in order, for a pair. */
export const MIN_OVERLAP = 0.6;
/** Video frames are compared this far apart (seconds). */
export const SAMPLE_SECONDS = 0.5;
/** Seconds of frames that show something (see {@link trust}) that must match for the frames alone to make a pair. */
export const SOLID_SECONDS = 2;
/**
 * Summed difference of the 12 quarter colour values (Y, Cb, Cr) up to which two frames have the same colours:
 * a re-encode or rescale moves them by 0–30, a brown slide and a blue one differ by hundreds.
 */
export const SAME_COLOURS = 60;
/** Mean difference of a photo's 48 colour values up to which two photos have the same colours. */
export const SAME_PHOTO_COLOURS = 14;

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

/**
 * How far a frame's hash can be trusted, 0..1, from its structure (`frameLook`'s first byte): nothing for a
 * flat colour with a caption (about 5) or a slide with a heading (11–18), all of it for a filmed scene
 * (100 and more). A sequence without looks is trusted as before they were kept.
 * @example
 * trust(null, 0); // 1
 */
export function trust(looks: Uint8Array | null, frame: number): number {
  if (!looks) return 1;
  const structure = looks[frame * LOOK_BYTES]!;
  return Math.max(0, Math.min(1, (structure - 20) / 60));
}

function sameColours(a: Uint8Array | null, i: number, b: Uint8Array | null, j: number): boolean {
  if (!a || !b) return true;
  let diff = 0;
  for (let k = 1; k < LOOK_BYTES; k++) diff += Math.abs(a[i * LOOK_BYTES + k]! - b[j * LOOK_BYTES + k]!);
  return diff <= SAME_COLOURS;
}

function distance(a: Uint32Array, i: number, b: Uint32Array, j: number): number {
  return popcount((a[2 * i]! ^ b[2 * j]!) >>> 0) + popcount((a[2 * i + 1]! ^ b[2 * j + 1]!) >>> 0);
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

/** A frame of A that has its like in B: its place among A's counted frames, its time in B, the differing bits, the offset that found it. */
interface FrameMatch {
  frame: number;
  rank: number;
  timeInB: number;
  bits: number;
  offset: number;
}

/**
 * The frames of A (every half second, not flat) and, for each, the best frame of B near an aligned offset;
 * and how many frames each offset matches on its own (`hits`), which says where the two line up when a still
 * shot fits any offset.
 */
function matchFrames(a: ItemLook, b: ItemLook, aligned: number[]): { counted: number[]; matches: FrameMatch[]; hits: Map<number, number> } {
  const framesA = a.hashes.length / 2;
  const framesB = b.hashes.length / 2;
  const step = Math.max(1, Math.round(a.fps * SAMPLE_SECONDS));
  const counted: number[] = [];
  const matches: FrameMatch[] = [];
  const hits = new Map(aligned.map((d) => [d, 0]));
  for (let i = 0; i < framesA; i += step) {
    if (isFlat(a.hashes[2 * i]!, a.hashes[2 * i + 1]!)) continue;
    counted.push(i);
    let best: FrameMatch | null = null;
    for (const d of aligned) {
      const j = Math.round((i / a.fps + d) * b.fps);
      let hit = false;
      for (let k = Math.max(0, j - 1); k <= Math.min(framesB - 1, j + 1); k++) {
        const bits = distance(a.hashes, i, b.hashes, k);
        if (bits > SAME_FRAME_BITS || !sameColours(a.looks, i, b.looks, k)) continue;
        hit = true;
        if (!best || bits < best.bits) best = { frame: i, rank: counted.length - 1, timeInB: k / b.fps, bits, offset: d };
      }
      if (hit) hits.set(d, hits.get(d)! + 1);
    }
    if (best) matches.push(best);
  }
  return { counted, matches, hits };
}

/**
 * The longest run of matches whose times in B never go back (patience sorting): a trim or a copy with
 * parts cut out shows the original's frames in order, a video that only looks alike meets them anyhow.
 */
function inOrder(matches: FrameMatch[]): FrameMatch[] {
  const tails: number[] = [];
  const previous: number[] = [];
  for (let m = 0; m < matches.length; m++) {
    const t = matches[m]!.timeInB;
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (matches[tails[mid]!]!.timeInB <= t) lo = mid + 1;
      else hi = mid;
    }
    previous[m] = lo > 0 ? tails[lo - 1]! : -1;
    tails[lo] = m;
  }
  const run: FrameMatch[] = [];
  for (let m = tails.length ? tails[tails.length - 1]! : -1; m >= 0; m = previous[m]!) run.push(matches[m]!);
  return run.reverse();
}

/** Seconds between two matches up to which what lies between them counts as shown too: a frame a codec blurred past the hash's bound. */
const GAP_SECONDS = 2;

/**
 * How much of each video the other shows: A's counted frames that match, or lie between two matches at most
 * {@link GAP_SECONDS} apart in both; and B's seconds that those matches span, the same way.
 */
function coverage(a: ItemLook, b: ItemLook, counted: number, run: FrameMatch[]): { overlapA: number; overlapB: number } {
  const step = Math.max(1, Math.round(a.fps * SAMPLE_SECONDS)) / a.fps;
  let framesA = run.length;
  let secondsB = step;
  for (let k = 1; k < run.length; k++) {
    const [p, q] = [run[k - 1]!, run[k]!];
    const gapB = q.timeInB - p.timeInB;
    if ((q.frame - p.frame) / a.fps <= GAP_SECONDS && gapB <= GAP_SECONDS) {
      framesA += q.rank - p.rank - 1;
      secondsB += gapB;
    } else secondsB += step;
  }
  return { overlapA: framesA / counted, overlapB: Math.min(1, secondsB / Math.max(b.duration, 1e-9)) };
}

/**
 * Where the two line up: the offset that matches the most frames on its own (a trim of a still slide matches
 * at any offset until the slide changes, where only the true one does). The sound is compared there, and
 * search maps one copy's times onto the other's by it.
 */
function mainOffset(hits: Map<number, number>): number {
  return [...hits.entries()].sort((x, y) => y[1] - x[1])[0]![0];
}

/**
 * Whether a video without looks agrees with the other in colour: most keyframes of the one have a print
 * of near the same picture and colours in the other (the keyframes were printed in colour all along).
 */
function keyframesAgree(a: ItemLook, b: ItemLook): boolean {
  if (!a.keyframes.length || !b.keyframes.length) return true;
  const found = a.keyframes.filter((p) => b.keyframes.some((q) => photosAlike(p, q))).length;
  return found / a.keyframes.length >= 0.5;
}

/**
 * Compares two videos at the offsets their candidate frames suggest: every half second of the shorter, the
 * frame of the longer at that offset (± one frame) must be the same frame in the same colours, in order;
 * then the words on screen and the sound must not differ, and where the matching frames show little, one
 * of them must agree. Null when they are no copies.
 * @example
 * compareVideos(original, trimmedCopy, [3.3, 3.3, 3.4]); // { similarity: 0.98, overlapA: 1, overlapB: 0.7 }
 */
export function compareVideos(a: ItemLook, b: ItemLook, offsets: number[]): PairMatch | null {
  // A is the shorter: its share decides.
  if (a.duration > b.duration) {
    const m = compareVideos(b, a, offsets.map((o) => -o));
    return m && { similarity: m.similarity, overlapA: m.overlapB, overlapB: m.overlapA, offset: -m.offset };
  }
  const words = wordsVerdict(a.words, b.words);
  if (words === 'differ') return null;
  const { counted, matches, hits } = matchFrames(a, b, likelyOffsets(offsets));
  const run = inOrder(matches);
  if (counted.length === 0 || run.length / counted.length < MIN_OVERLAP) return null;
  const offset = mainOffset(hits);
  const sound = soundVerdict(a.sound, b.sound, offset);
  if (sound === 'differ') return null;
  const solidSeconds = run.reduce((s, m) => s + trust(a.looks, m.frame) * SAMPLE_SECONDS, 0);
  if (solidSeconds < SOLID_SECONDS && words !== 'agree' && sound !== 'agree') return null;
  if ((!a.looks || !b.looks) && !keyframesAgree(a, b)) return null;
  const similarity = run.reduce((s, m) => s + (1 - m.bits / 64), 0) / run.length;
  return { similarity, offset, ...coverage(a, b, counted.length, run) };
}

/** Whether two prints show the same picture in the same colours. */
function photosAlike(a: FramePrint, b: FramePrint): boolean {
  let colours = 0;
  for (let i = 0; i < a.colour.length; i++) colours += Math.abs(a.colour[i]! - b.colour[i]!);
  return colours / a.colour.length <= SAME_PHOTO_COLOURS && printSimilarity(a, b) >= SAME_PHOTO;
}

/**
 * Compares two photos by their fingerprints: the same picture, and the same colours (a picture and its
 * recoloured version share every grey hash bit).
 * @example
 * comparePhotos(photo, smallerCopy); // { similarity: 0.97, overlapA: 1, overlapB: 1 }
 */
export function comparePhotos(a: ItemLook, b: ItemLook): PairMatch | null {
  if (!a.photo || !b.photo || !photosAlike(a.photo, b.photo)) return null;
  return { similarity: printSimilarity(a.photo, b.photo), overlapA: 1, overlapB: 1, offset: 0 };
}
