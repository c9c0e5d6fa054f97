import { cutEpisodes } from '../episodes.js';
import type { AnalysisStep } from './step.js';

/**
 * Where the chapters (episodes) begin and end: at shots, pauses and on-screen text changes, never inside a
 * sentence but where its content starts (episodes.ts).
 * @example
 * episodesStep.fills; // ['spans']
 */
export const episodesStep: AnalysisStep = {
  stage: 'episodes',
  share: 0.01,
  reads: ['probe', 'transcribed'],
  uses: ['seen'],
  fills: ['spans'],
  async run(w) {
    const transcribed = w.transcribed!;
    const spans = cutEpisodes({
      duration: w.probe!.durationSec,
      shots: w.seen?.cuts ?? [],
      transcript: transcribed.segments.length ? transcribed.segments : transcribed.speech.map((s) => ({ ...s, text: '' })),
      textChanges: (w.seen?.screenText ?? []).map((t) => t.start).filter((t) => t > 0),
    });
    return { spans };
  },
};
