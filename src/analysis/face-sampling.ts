/**
 * Where the face stage looks again: more frames inside the shots whose keyframes showed a face, so a track's
 * start and end follow the face more closely than the keyframes' 4 s spacing and its mean vector rests on
 * more sightings. Bounded, because each extra frame is a decode, a detection (~70 ms at 1280×720 here) and
 * an embedding per face.
 */

/** Extra frames at most per shot with faces. */
export const EXTRA_PER_SHOT = 2;

/** Extra frames at most per minute of video (a quarter of the keyframes: faces must stay under 3 s a minute). */
export const EXTRA_PER_MINUTE = 4;

/**
 * Times to look at again: the midpoints between a face shot's keyframes, between its start and first
 * keyframe, and between its last keyframe and its end (each at least 0.5 s from both), at most
 * EXTRA_PER_SHOT per shot and EXTRA_PER_MINUTE per minute of video overall, never fewer than EXTRA_PER_SHOT
 * for a short clip (spread evenly when cut).
 * @example
 * extraFaceTimes([{ time: 1, faces: 1 }, { time: 5, faces: 0 }], [], 9); // [0.5, 7]: of the midpoints 0.5, 3, 7
 */
export function extraFaceTimes(keyframes: Array<{ time: number; faces: number }>, cuts: number[], duration: number): number[] {
  const bounds = [0, ...cuts.filter((c) => c > 0 && c < duration).sort((a, b) => a - b), duration];
  const wanted: number[] = [];
  for (let i = 1; i < bounds.length; i++) {
    const [a, b] = [bounds[i - 1], bounds[i]];
    const inShot = keyframes.filter((k) => k.time >= a && k.time < b).sort((x, y) => x.time - y.time);
    if (!inShot.some((k) => k.faces > 0)) continue;
    const marks = [a, ...inShot.map((k) => k.time), b];
    const mids: number[] = [];
    for (let j = 1; j < marks.length; j++) {
      const [p, q] = [marks[j - 1], marks[j]];
      if (q - p >= 1) mids.push(Math.round(((p + q) / 2) * 1000) / 1000);
    }
    wanted.push(...spread(mids, EXTRA_PER_SHOT));
  }
  return spread(wanted, Math.max(EXTRA_PER_SHOT, Math.round((duration / 60) * EXTRA_PER_MINUTE)));
}

/** At most `n` of `xs`, evenly spaced, in order. */
function spread(xs: number[], n: number): number[] {
  if (xs.length <= n) return xs;
  return Array.from({ length: n }, (_, i) => xs[Math.floor(((i + 0.5) * xs.length) / n)]);
}
