/**
 * How much text an analysis may hand the store (issue 43): more than people record, never so much that
 * storing it or searching it stalls the server. Every analysis is cut to these before it is stored, whether
 * this server's pipeline made it or a worker delivered it; the pipeline cuts subtitle tracks earlier, with a
 * warning (subtitle-tracks.ts).
 */
import { owningSpans } from './spans.js';
import type { EpisodeAnalysis, MediaAnalysis, SubtitleTrack, TimedText, VisualEntry } from './types.js';

/**
 * The caps. An episode lasts at most 300 s (episodes.ts): 600 lines is two a second, faster than people
 * speak, and a line of 500 characters is longer than any subtitle cue or spoken sentence.
 */
export const TEXT_LIMITS = {
  /** Characters of one transcript line, subtitle line, on-screen text line or visual description. */
  lineChars: 500,
  /** Transcript lines of one episode (and lines of each other subtitle track). */
  episodeLines: 600,
  /** Visual entries of one episode, and on-screen text lines of one shot. */
  episodeVisuals: 300,
  /** Characters of an episode's or the item's summary. */
  summaryChars: 2_000,
} as const;

/**
 * A text cut at a word boundary with "…" when it is longer than `max` characters.
 * @example
 * cutText('a very long line', 10); // 'a very…'
 */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max - 1).replace(/\s+\S*$/, '')}…`;
}

const line = (t: TimedText): TimedText => (t.text.length <= TEXT_LIMITS.lineChars ? t : { ...t, text: cutText(t.text, TEXT_LIMITS.lineChars) });

function visual(v: VisualEntry): VisualEntry {
  return { ...v, summary: cutText(v.summary, TEXT_LIMITS.lineChars), ocr: v.ocr.slice(0, TEXT_LIMITS.episodeVisuals).map((o) => cutText(o, TEXT_LIMITS.lineChars)) };
}

function episode(e: EpisodeAnalysis): EpisodeAnalysis {
  return {
    ...e,
    audio: e.audio.slice(0, TEXT_LIMITS.episodeLines).map(line),
    visual: e.visual.slice(0, TEXT_LIMITS.episodeVisuals).map(visual),
    summary: cutText(e.summary, TEXT_LIMITS.summaryChars),
  };
}

/** A track's lines, at most {@link TEXT_LIMITS}.episodeLines in each episode they fall in, each line cut. */
function track(t: SubtitleTrack, episodes: EpisodeAnalysis[]): SubtitleTrack {
  const owner = owningSpans(t.segments, episodes);
  const count = new Map<number, number>();
  const segments = t.segments.filter((_, k) => {
    const n = (count.get(owner[k]!) ?? 0) + 1;
    count.set(owner[k]!, n);
    return n <= TEXT_LIMITS.episodeLines;
  });
  return { ...t, segments: segments.map(line) };
}

/** Whether each episode holds at most {@link TEXT_LIMITS}.episodeLines of a track's lines. */
function trackWithin(t: SubtitleTrack, episodes: EpisodeAnalysis[]): boolean {
  if (t.segments.length <= TEXT_LIMITS.episodeLines) return t.segments.every((s) => s.text.length <= TEXT_LIMITS.lineChars);
  return track(t, episodes).segments.length === t.segments.length && t.segments.every((s) => s.text.length <= TEXT_LIMITS.lineChars);
}

/**
 * An analysis cut to {@link TEXT_LIMITS}: each episode's lines and visual entries, every line, the summaries.
 * An analysis within the caps comes back as it is (the same object).
 * @example
 * store.put(boundedAnalysis(delivered));
 */
export function boundedAnalysis(a: MediaAnalysis): MediaAnalysis {
  const within =
    a.summary.length <= TEXT_LIMITS.summaryChars &&
    a.screenText.every((t) => t.text.length <= TEXT_LIMITS.lineChars) &&
    (a.subtitleTracks ?? []).every((t) => trackWithin(t, a.episodes)) &&
    a.episodes.every(
      (e) =>
        e.audio.length <= TEXT_LIMITS.episodeLines &&
        e.visual.length <= TEXT_LIMITS.episodeVisuals &&
        e.summary.length <= TEXT_LIMITS.summaryChars &&
        e.audio.every((t) => t.text.length <= TEXT_LIMITS.lineChars) &&
        e.visual.every((v) => v.summary.length <= TEXT_LIMITS.lineChars && v.ocr.length <= TEXT_LIMITS.episodeVisuals && v.ocr.every((o) => o.length <= TEXT_LIMITS.lineChars)),
    );
  if (within) return a;
  return {
    ...a,
    summary: cutText(a.summary, TEXT_LIMITS.summaryChars),
    transcript: a.transcript.map(line),
    screenText: a.screenText.map(line),
    visual: a.visual.map(visual),
    subtitleTracks: a.subtitleTracks?.map((t) => track(t, a.episodes)),
    episodes: a.episodes.map(episode),
  };
}
