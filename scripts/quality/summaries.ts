/**
 * Video summary quality: does the summary of a three-topic lecture name every topic, is it bounded, and
 * does a clip with untranscribed speech get a warning instead of a false statement in its summaries.
 */
import type { QualityServer } from './harness.js';
import type { Lecture, QuietClip } from './media.js';

/** What {@link measureSummaries} reports. */
export interface SummaryFigures {
  /** Share of lecture topics (over all lectures) of which the video summary holds a sentence. */
  topicsInSummary: number;
  topics: number;
  /** Longest video summary, in characters. */
  longestSummaryChars: number;
  /** Summaries claiming nothing was said or shown while speech or text is there. */
  falseStatements: number;
  /** The quiet clip's speech without a model is named in `warnings`. */
  missingModelWarned: boolean;
  perLecture: { language: string; summary: string; covered: string[] }[];
}

/** Phrases that claimed "nothing recognised" in summaries of earlier versions. */
const NOTHING = /no speech|nothing recognised|not recognised|keine sprache|nichts erkannt/i;

/**
 * Analyses the lectures and the quiet clip and checks their summaries against what is known.
 * @example
 * const f = await measureSummaries(server, media.lectures, media.quiet);
 * f.topicsInSummary; // 1
 */
export async function measureSummaries(h: QualityServer, lectures: Lecture[], quiet: QuietClip): Promise<SummaryFigures> {
  let covered = 0;
  let topics = 0;
  let longest = 0;
  let falseStatements = 0;
  const perLecture: SummaryFigures['perLecture'] = [];
  for (const lecture of lectures) {
    const result = await h.task('/analyze', { video: { path: lecture.path } });
    const summary = result.video_summary as string;
    longest = Math.max(longest, summary.length);
    const hit = lecture.topics.filter((t) => t.sentences.some((s) => summary.includes(s.replace(/[.!?]$/, ''))));
    covered += hit.length;
    topics += lecture.topics.length;
    perLecture.push({ language: result.language, summary, covered: hit.map((t) => t.title) });
    for (const e of result.episodic_summary as { summary: string }[]) if (NOTHING.test(e.summary)) falseStatements++;
  }
  const q = await h.task('/analyze', { video: { path: quiet.path } });
  const summaries = [q.video_summary as string, ...(q.episodic_summary as { summary: string }[]).map((e) => e.summary)];
  falseStatements += summaries.filter((s) => NOTHING.test(s)).length;
  return {
    topicsInSummary: Math.round((covered / Math.max(1, topics)) * 1000) / 1000,
    topics,
    longestSummaryChars: longest,
    falseStatements,
    missingModelWarned: (q.warnings as string[]).some((w) => /speech/i.test(w) && /model/i.test(w)),
    perLecture,
  };
}
