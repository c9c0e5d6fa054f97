import { findShots } from '../shots.js';
import type { AnalysisStep } from './step.js';

/**
 * Where a video's shots change, and the dense frame sequence duplicates compare: one decoding pass that needs
 * nothing but the probe, so it runs while the transcript is made (a Whisper transcript takes as long). Its
 * shots are filled as soon as the pass starts: the visual step reads the keyframes of the first shots while
 * the pass goes on, and this step ends when the pass does.
 * @example
 * shotsStep.early; // ['shots']
 */
export const shotsStep: AnalysisStep = {
  stage: 'shot_detection',
  share: 0.16,
  reads: ['probe'],
  fills: ['shots'],
  early: ['shots'],
  when: (w) => Boolean(w.probe?.video),
  async run(w, ctx) {
    const shots = findShots(w.input.file, w.probe!, { models: ctx.models, signal: ctx.signal, progress: (f) => ctx.progress(f, 'shot_detection') });
    ctx.fill({ shots });
    await shots.found;
    return {};
  },
};
