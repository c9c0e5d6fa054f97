import { videoSummary } from '../summarize.js';
import type { AnalysisStep } from './step.js';

/**
 * The item's summary: one sentence per episode (or run of episodes), what was said, else what was shown as text.
 * @example
 * videoSummaryStep.fills; // ['summary']
 */
export const videoSummaryStep: AnalysisStep = {
  stage: 'summaries',
  share: 0,
  reads: ['episodes', 'embed', 'boost'],
  fills: ['summary'],
  async run(w) {
    const parts = w.episodes!.map((e) => {
      const said = e.audio.map((a) => a.text);
      return said.length ? said : [...new Set(e.visual.flatMap((v) => v.ocr))].map((line) => (/[.!?…]$/.test(line) ? line : `${line}.`));
    });
    return { summary: await videoSummary(parts, w.embed ?? null, w.boost!) };
  },
};
