/**
 * Episode quality on lectures with known slide cuts: how far each cut is from the nearest episode
 * boundary, and how many episodes carry on-screen text of a slide that is not theirs.
 */
import type { QualityServer } from './harness.js';
import type { Lecture } from './media.js';

/** What {@link measureEpisodes} reports. */
export interface EpisodeFigures {
  /** Largest distance from a known cut to the nearest episode boundary (seconds). */
  boundaryErrorMaxSec: number;
  boundaryErrorMeanSec: number;
  cuts: number;
  /** Episodes whose visual entries name another topic's slide title. */
  episodesWithForeignText: number;
  perLecture: { language: string; cuts: number[]; boundaries: number[] }[];
}

interface AnalyzedEpisode {
  start: { seconds: number };
  end: { seconds: number };
  visual: { start: number; end: number; summary: string }[];
}

/**
 * Analyses each lecture (its sidecar subtitles give the exact transcript) and compares the episodes with
 * the known cuts.
 * @example
 * const f = await measureEpisodes(server, media.lectures);
 * f.boundaryErrorMaxSec; // 0
 */
export async function measureEpisodes(h: QualityServer, lectures: Lecture[]): Promise<EpisodeFigures> {
  const errors: number[] = [];
  let foreign = 0;
  const perLecture: EpisodeFigures['perLecture'] = [];
  for (const lecture of lectures) {
    const result = await h.task('/analyze', { video: { path: lecture.path } });
    const episodes = result.episodic_summary as AnalyzedEpisode[];
    const boundaries = episodes.slice(1).map((e) => e.start.seconds);
    for (const cut of lecture.cuts) errors.push(Math.min(...boundaries.map((b) => Math.abs(b - cut)), Infinity));
    for (const e of episodes) {
      const mid = (e.start.seconds + e.end.seconds) / 2;
      const own = lecture.topics.find((t) => mid >= t.start && mid < t.end);
      const text = e.visual.map((v) => v.summary).join(' ');
      if (lecture.topics.some((t) => t !== own && text.includes(t.title))) foreign++;
    }
    perLecture.push({ language: lecture.language, cuts: lecture.cuts, boundaries });
  }
  const round = (n: number) => Math.round(n * 1000) / 1000;
  return {
    boundaryErrorMaxSec: round(Math.max(...errors)),
    boundaryErrorMeanSec: round(errors.reduce((a, b) => a + b, 0) / Math.max(1, errors.length)),
    cuts: errors.length,
    episodesWithForeignText: foreign,
    perLecture,
  };
}
