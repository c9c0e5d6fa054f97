/**
 * Joins the faces seen on the sampled frames of a shot into tracks: one track per person per shot. With face
 * vectors the same person is recognised across a pan or a zoom; without them only by place (overlap or a
 * short move), since a few seconds separate the frames.
 */

/** A box as fractions of the frame (0..1). */
export interface UnitBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** One face on one sampled frame. */
export interface FaceSighting {
  time: number;
  box: UnitBox;
  score: number;
  /** Unit face vector, null when not embedded (no embedder, or the face is too small). */
  vector: number[] | null;
  /** Face width in frame pixels (bigger crops make better thumbnails and vectors). */
  pixels: number;
  /** Index of the sighting in the caller's list, to find its crop again. */
  ref: number;
}

/** One person in one shot. */
export interface LinkedTrack {
  shot: number;
  start: number;
  end: number;
  sightings: FaceSighting[];
  /** The sighting that shows the face best (largest × score). */
  best: FaceSighting;
  /** Mean of the sightings' vectors, normalised; null when none was embedded. */
  vector: number[] | null;
}

/**
 * Cosine at or above which two vectors are the same person inside one shot. SFace's own same-person threshold
 * is 0.363 (OpenCV Zoo); inside a shot the candidates are few and close in time, so a bit above it.
 * @example
 * if (cosine(a, b) >= SAME_FACE_IN_SHOT) join(a, b);
 */
export const SAME_FACE_IN_SHOT = 0.4;

/**
 * Cosine similarity of two unit vectors.
 * @example
 * cosine([1, 0], [0.6, 0.8]); // 0.6
 */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

/**
 * The normalised mean of unit vectors, or null for none.
 * @example
 * meanVector([[1, 0], [0, 1]]); // [0.707…, 0.707…]
 */
export function meanVector(vectors: ArrayLike<number>[]): number[] | null {
  if (vectors.length === 0) return null;
  const sum = new Array<number>(vectors[0].length).fill(0);
  for (const v of vectors) for (let i = 0; i < sum.length; i++) sum[i] += v[i];
  const norm = Math.hypot(...sum) || 1;
  return sum.map((x) => x / norm);
}

/** How well a sighting continues a track (higher is better), or -1 when it cannot be the same face. */
function affinity(last: FaceSighting, s: FaceSighting): number {
  if (last.vector && s.vector) {
    const c = cosine(last.vector, s.vector);
    return c >= SAME_FACE_IN_SHOT ? c : -1;
  }
  const dx = last.box.x + last.box.width / 2 - (s.box.x + s.box.width / 2);
  const dy = last.box.y + last.box.height / 2 - (s.box.y + s.box.height / 2);
  // Two face widths: a pan moves a face about that far between keyframes 4 s apart (measured on the test videos).
  const reach = 2 * Math.max(last.box.width, s.box.width);
  const near = Math.hypot(dx, dy) <= reach;
  const alike = Math.max(last.box.width, s.box.width) / Math.max(1e-6, Math.min(last.box.width, s.box.width)) <= 2;
  return near && alike ? 1 - Math.hypot(dx, dy) / (2 * reach) : -1;
}

/**
 * Tracks from the faces of sampled frames (sorted by time). `cuts` are the shot boundaries; a track never
 * crosses one. A frame's faces speak for the time up to the next sampled frame of the same shot.
 * @example
 * linkTracks([{ time: 1, faces: [a] }, { time: 5, faces: [a2] }], [], 10); // one track, 1..10
 */
export function linkTracks(frames: Array<{ time: number; faces: FaceSighting[] }>, cuts: number[], duration: number): LinkedTrack[] {
  const bounds = [0, ...cuts.filter((c) => c > 0 && c < duration).sort((a, b) => a - b), duration];
  const shotOf = (t: number) => Math.max(0, bounds.findIndex((b, i) => i > 0 && t < b) - 1);
  const done: LinkedTrack[] = [];
  let open: LinkedTrack[] = [];
  let shot = -1;
  const sorted = [...frames].sort((a, b) => a.time - b.time);
  sorted.forEach((frame, fi) => {
    const s = shotOf(frame.time);
    if (s !== shot) {
      done.push(...open);
      open = [];
      shot = s < 0 ? bounds.length - 2 : s;
    }
    const next = sorted[fi + 1];
    const until = next && shotOf(next.time) === shot ? next.time : bounds[shot + 1];
    // Best pairs first, each track and each face used once per frame.
    const pairs: Array<{ t: LinkedTrack; f: FaceSighting; a: number }> = [];
    for (const t of open) for (const f of frame.faces) {
      const a = affinity(t.sightings[t.sightings.length - 1], f);
      if (a >= 0) pairs.push({ t, f, a });
    }
    pairs.sort((p, q) => q.a - p.a);
    const usedT = new Set<LinkedTrack>();
    const usedF = new Set<FaceSighting>();
    for (const p of pairs) {
      if (usedT.has(p.t) || usedF.has(p.f)) continue;
      usedT.add(p.t);
      usedF.add(p.f);
      p.t.sightings.push(p.f);
      p.t.end = until;
    }
    const firstOfShot = !sorted[fi - 1] || shotOf(sorted[fi - 1].time) !== shot;
    for (const f of frame.faces) {
      if (usedF.has(f)) continue;
      open.push({ shot, start: firstOfShot ? bounds[shot] : frame.time, end: until, sightings: [f], best: f, vector: null });
    }
  });
  done.push(...open);
  for (const t of done) {
    t.best = t.sightings.reduce((b, s) => (s.pixels * s.score > b.pixels * b.score ? s : b));
    t.vector = meanVector(t.sightings.flatMap((s) => (s.vector ? [s.vector] : [])));
  }
  return done.sort((a, b) => a.start - b.start || a.best.box.x - b.best.box.x);
}
