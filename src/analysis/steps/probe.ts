import { probeMedia } from '../../media/index.js';
import type { AnalysisStep } from './step.js';

/**
 * What the file is: its streams, length and size (ffprobe). A file that is no media fails the analysis here.
 * @example
 * VIDEO_STEPS[0] === probeStep; // true
 */
export const probeStep: AnalysisStep = {
  stage: 'probing',
  share: 0.05,
  reads: [],
  fills: ['probe'],
  run: async (w, ctx) => ({ probe: await probeMedia(w.input.file, { signal: ctx.signal, tools: ctx.models.tools }) }),
};
