import { contentWords, cosine, tfidf } from './text-stats.js';
import type { TimedText } from './types.js';

/** What the episode cutter looks at. */
export interface CutSignals {
  duration: number;
  /** Shot changes with their strength (0..1). */
  shots: { time: number; score: number }[];
  /** Transcript segments in time order. */
  transcript: TimedText[];
  /** Times where on-screen text changes. */
  textChanges: number[];
}

/** Episode length bounds and target for a media of this duration, in seconds. */
export function lengthBounds(duration: number): { min: number; target: number; max: number } {
  const target = Math.min(120, Math.max(8, duration / 8));
  const min = Math.min(target / 2, Math.max(3, duration / 60));
  const max = Math.min(300, Math.max(target * 2.5, 20));
  return { min, target, max };
}

interface Candidate {
  time: number;
  score: number;
  /** A picture change (a shot, or the on-screen text): where a boundary reads right, so merged candidates keep its time. */
  visual?: boolean;
}

/** How far a chosen boundary moves to a shot change (seconds). */
export const SNAP_REACH = 1.5;

/**
 * Whether a boundary at `time` would split a sentence: it falls inside a transcript segment, and not within
 * {@link SNAP_REACH} of its end. A slide that changes while the sentence before it ends opens the next
 * chapter there; the sentence's last words stay with the chapter before (the one it overlaps most).
 */
function splitsSpeech(time: number, transcript: TimedText[]): boolean {
  return transcript.some((s) => s.start < time - 0.05 && s.end > time + 0.05 && s.end - time > SNAP_REACH);
}

/**
 * Moves each inner boundary to the nearest picture change (shot or on-screen text) within {@link SNAP_REACH}
 * when that splits no sentence and keeps the boundaries in order, so an episode starts with its picture.
 */
function snapToPictures(cuts: number[], pictures: number[], transcript: TimedText[]): number[] {
  const out = [...cuts];
  for (let k = 1; k < out.length - 1; k++) {
    const t = out[k];
    const near = pictures
      .filter((s) => Math.abs(s - t) <= SNAP_REACH && s > out[k - 1] + 0.5 && s < out[k + 1] - 0.5 && !splitsSpeech(s, transcript))
      .sort((a, b) => Math.abs(a - t) - Math.abs(b - t));
    if (near.length) out[k] = near[0];
  }
  return out;
}

/**
 * Moves each inner boundary that lies in a silence between two lines to where the next chapter's content
 * starts: the first picture change in that silence, else the start of the line after it. A chapter then
 * opens with its slide or its first words, never half a pause or a sentence's end before them, and a
 * search result for its first line starts at the same second.
 */
function openAtContent(cuts: number[], pictures: number[], transcript: TimedText[]): number[] {
  const out = [...cuts];
  for (let k = 1; k < out.length - 1; k++) {
    const t = out[k];
    if (pictures.some((p) => Math.abs(p - t) < 0.05) || transcript.some((s) => s.start - 0.05 < t && s.end > t)) continue;
    const next = transcript.find((s) => s.start > t);
    if (!next) continue;
    const silenceFrom = Math.max(out[k - 1], ...transcript.filter((s) => s.end <= t).map((s) => s.end));
    const opening = pictures.filter((p) => p >= silenceFrom && p < next.start).sort((a, b) => a - b)[0] ?? next.start;
    if (opening > out[k - 1] + 0.5 && opening < out[k + 1] - 0.5) out[k] = opening;
  }
  return out;
}

/** Gaps between transcript segments: silence worth cutting at, scored by length. */
function pauses(transcript: TimedText[]): Candidate[] {
  const out: Candidate[] = [];
  for (let i = 1; i < transcript.length; i++) {
    const gap = transcript[i].start - transcript[i - 1].end;
    if (gap >= 0.4) out.push({ time: (transcript[i].start + transcript[i - 1].end) / 2, score: Math.min(1, gap / 2) * 0.8 });
  }
  return out;
}

/** Topic shifts: low lexical similarity between the transcript before and after a pause. */
function topicShifts(transcript: TimedText[], window: number): Candidate[] {
  if (transcript.length < 4) return [];
  const out: Candidate[] = [];
  for (let i = 1; i < transcript.length; i++) {
    const t = transcript[i].start;
    const before = transcript.filter((s) => s.end <= t && s.end > t - window).map((s) => s.text).join(' ');
    const after = transcript.filter((s) => s.start >= t && s.start < t + window).map((s) => s.text).join(' ');
    const [a, b] = tfidf([contentWords(before), contentWords(after)]);
    if (a.size < 3 || b.size < 3) continue;
    out.push({ time: (t + transcript[i - 1].end) / 2, score: (1 - cosine(a, b)) * 0.6 });
  }
  return out;
}

/**
 * Moves a candidate out of the middle of a transcript segment to the nearest segment edge, so no
 * sentence is cut; one that had to move further than `reach` keeps half its strength and is no longer
 * a picture change (the boundary is not on it any more). A picture change in a sentence's last `reach`
 * seconds stays: the slide changed as the sentence ended, and the next chapter opens with it.
 */
function outOfSpeech(c: Candidate, transcript: TimedText[], reach: number): Candidate {
  const inside = transcript.find((s) => s.start < c.time && s.end > c.time);
  if (!inside) return c;
  const toStart = c.time - inside.start;
  const toEnd = inside.end - c.time;
  if (c.visual && toEnd <= reach && toEnd < toStart) return c;
  const time = toStart < toEnd ? inside.start : inside.end;
  return Math.min(toStart, toEnd) > reach ? { time, score: c.score / 2 } : { ...c, time };
}

/**
 * Cuts a media into episodes that follow shot changes, pauses in speech, topic shifts and on-screen
 * text changes, with lengths adapted to the duration; returns [start, end) pairs covering 0..duration
 * with no gaps or overlaps. Chooses cuts by dynamic programming: the sum of cut strengths minus a
 * penalty for straying from the target length, within the min/max bounds; then each boundary snaps
 * to a picture change within {@link SNAP_REACH} seconds that splits no sentence, and one left in a silence
 * moves to where the next content starts ({@link openAtContent}): a chapter starts at the slide change or
 * the line that opens it, whichever comes first.
 * @example
 * cutEpisodes({ duration: 24, shots: [{time: 8, score: 1}, {time: 16, score: 1}], transcript: [], textChanges: [] });
 * // [[0, 8], [8, 16], [16, 24]]
 */
export function cutEpisodes(signals: CutSignals): [number, number][] {
  const { duration } = signals;
  if (!(duration > 0)) return [[0, 0]];
  const { min, target, max } = lengthBounds(duration);
  if (duration <= min * 1.5) return [[0, duration]];

  const raw: Candidate[] = [
    ...signals.shots.map((s) => ({ time: s.time, score: 0.5 + 0.5 * Math.min(1, s.score), visual: true })),
    ...pauses(signals.transcript),
    ...topicShifts(signals.transcript, Math.max(15, target / 2)),
    ...signals.textChanges.map((t) => ({ time: t, score: 0.6, visual: true })),
  ];
  // Regular fallbacks so a long stretch without any signal still gets cut within the bounds.
  for (let t = target / 2; t < duration; t += target / 2) raw.push({ time: t, score: 0 });

  // Merge candidates closer than a second: strengths add up where signals agree.
  const merged: Candidate[] = [];
  for (const c of raw
    .map((c) => outOfSpeech(c, signals.transcript, SNAP_REACH))
    .filter((c) => c.time >= min && c.time <= duration - min)
    .sort((a, b) => a.time - b.time)) {
    const last = merged[merged.length - 1];
    if (last && c.time - last.time < 1) {
      last.score = Math.min(2, last.score + c.score);
      // A pause half a second before a slide change: the boundary goes on the change.
      if (c.visual && !last.visual) {
        last.time = c.time;
        last.visual = true;
      }
    } else merged.push({ ...c });
  }
  const points: Candidate[] = [{ time: 0, score: 0 }, ...merged, { time: duration, score: 0 }];
  const best = new Array<number>(points.length).fill(-Infinity);
  const prev = new Array<number>(points.length).fill(-1);
  best[0] = 0;
  for (let j = 1; j < points.length; j++) {
    for (let i = j - 1; i >= 0; i--) {
      const len = points[j].time - points[i].time;
      if (len > max) break;
      if (len < min || best[i] === -Infinity) continue;
      const value = best[i] + points[j].score - 0.5 * Math.abs(Math.log(len / target));
      if (value > best[j]) {
        best[j] = value;
        prev[j] = i;
      }
    }
  }
  const last = points.length - 1;
  if (prev[last] === -1) {
    // No path within the bounds (sparse candidates): fall back to equal parts near the target length.
    const n = Math.max(1, Math.round(duration / target));
    return Array.from({ length: n }, (_, k) => [(duration * k) / n, (duration * (k + 1)) / n] as [number, number]);
  }
  const cuts: number[] = [];
  for (let j = last; j > 0; j = prev[j]) cuts.push(points[j].time);
  cuts.push(0);
  cuts.reverse();
  const pictures = [...signals.shots.map((s) => s.time), ...signals.textChanges];
  const snapped = openAtContent(snapToPictures(cuts, pictures, signals.transcript), pictures, signals.transcript);
  const out: [number, number][] = [];
  for (let k = 1; k < snapped.length; k++) out.push([round(snapped[k - 1]), round(snapped[k])]);
  out[out.length - 1][1] = duration;
  return out;
}

function round(t: number): number {
  return Math.round(t * 1000) / 1000;
}
