/**
 * The pictures of a video a search result may show: one thumbnail per look, each standing for the stretch
 * of the video that looks like it, so a result shows what was on screen at its start (issue 42: a moment
 * that starts on the second slide shows the second slide, not the first picture of its episode).
 */
import { printSimilarity } from '../media/perceptual.js';
import type { TimedPicture, TimedPrint } from './types.js';

/** Keyframes this alike (printSimilarity) show one picture: a still slide or shot keeps one thumbnail. */
export const SAME_PICTURE = 0.9;

/** A picture's stretch before its thumbnail is written: where it starts and which keyframe shows it. */
export interface PictureStretch {
  from: number;
  time: number;
}

/**
 * The video's pictures from its keyframes' prints and its shot changes: a keyframe that looks like the
 * picture before it (within {@link SAME_PICTURE}) adds none. A picture starts where its keyframe's shot
 * starts when it is the shot's first keyframe (keyframes sit a second after a cut), else at the keyframe.
 * @example
 * pictureStretches(prints, [12]); // [{ from: 0, time: 1 }, { from: 12, time: 13 }] for two still slides
 */
export function pictureStretches(prints: TimedPrint[], cuts: number[]): PictureStretch[] {
  const sorted = [...prints].sort((a, b) => a.time - b.time);
  const out: PictureStretch[] = [];
  let shown: TimedPrint | null = null;
  sorted.forEach((p, i) => {
    if (shown && printSimilarity(shown, p) >= SAME_PICTURE) return;
    const shotStart = Math.max(0, ...cuts.filter((c) => c <= p.time));
    const prev = sorted[i - 1];
    out.push({ from: i === 0 ? 0 : prev && prev.time >= shotStart ? p.time : shotStart, time: p.time });
    shown = p;
  });
  return out;
}

/**
 * The pictures whose stretches overlap [start, end), in order: an episode's.
 * @example
 * picturesOf(pictures, 12, 18.5); // the picture from 12 (and one that began before 12 and still shows then)
 */
export function picturesOf<T extends { from: number }>(pictures: readonly T[], start: number, end: number): T[] {
  return pictures.filter((p, i) => p.from < end && (pictures[i + 1]?.from ?? Infinity) > start);
}

/**
 * The picture on screen at `time`: the last whose stretch has begun by then, else the first (a time before
 * any of them). Null for no pictures.
 * @example
 * pictureAt([{ from: 0, time: 1, thumbnail: 'a' }, { from: 12, time: 13, thumbnail: 'b' }], 12)?.thumbnail; // 'b'
 */
export function pictureAt<T extends Pick<TimedPicture, 'from'>>(pictures: readonly T[], time: number): T | null {
  let at: T | null = pictures[0] ?? null;
  // Times are rounded to the millisecond in results: a slide's start and its picture's meet within that.
  for (const p of pictures) if (p.from <= time + 0.005) at = p;
  return at;
}
