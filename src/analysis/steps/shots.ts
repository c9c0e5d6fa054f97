import { findShots } from '../visual.js';
import type { AnalysisStep } from './step.js';

/**
 * Where a video's shots change, and the dense frame sequence duplicates compare: one decoding pass that needs
 * nothing but the probe, so it runs while the transcript is made (a Whisper transcript takes as long).
 * @example
 * shotsStep.reads; // ['probe']
 */
export const shotsStep: AnalysisStep = {
  stage: 'shot_detection',
  share: 0.16,
  reads: ['probe'],
  fills: ['shots'],
  when: (w) => Boolean(w.probe?.video),
  run: async (w, ctx) => ({ shots: await findShots(w.input.file, w.probe!, { models: ctx.models, signal: ctx.signal }) }),
};
