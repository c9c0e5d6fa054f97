import { startFaceScan } from '../faces.js';
import { analyzeVisual } from '../visual.js';
import type { AnalysisStep } from './step.js';

/**
 * What is shown: the keyframes of the shots (shots.ts) with their on-screen text, tags (with the image-text model) and prints, the
 * dense frame sequence duplicates compare; a face scan rides on the keyframes when the collection asks for faces.
 * @example
 * visualStep.reads; // ['probe', 'language', 'shots']
 */
export const visualStep: AnalysisStep = {
  stage: 'on_screen_text',
  stages: ['visual_tags'],
  share: 0.2,
  reads: ['probe', 'language', 'shots'],
  fills: ['seen', 'faceScan', 'screenText', 'visual', 'framePrints', 'frameSequence'],
  when: (w) => Boolean(w.shots),
  async run(w, ctx) {
    const faceScan = w.input.faces ? await startFaceScan(ctx.models) : null;
    const seen = await analyzeVisual(w.input.file, w.probe!, w.shots!, { models: ctx.models, language: w.language!, signal: ctx.signal, progress: ctx.progress, onFrame: faceScan ? (f) => faceScan.add(f) : undefined });
    return { seen, faceScan, screenText: seen.screenText, visual: seen.entries, framePrints: seen.prints, frameSequence: seen.sequence, warnings: seen.warnings };
  },
};
