import { extractFrames } from '../../media/index.js';
import type { AnalysisStep } from './step.js';

/**
 * The faces the scan found on the keyframes, followed through their shots and cropped (only when the
 * collection asks for faces: they are biometric data).
 * @example
 * facesStep.when?.({ input, faceScan: null, warnings: [] }); // false
 */
export const facesStep: AnalysisStep = {
  stage: 'faces',
  share: 0.02,
  reads: ['probe', 'seen', 'faceScan'],
  fills: ['faces', 'facesSamePerson'],
  when: (w) => Boolean(w.faceScan),
  async run(w, ctx) {
    const scan = w.faceScan!;
    const probe = w.probe!;
    const frames = (times: number[]) => extractFrames(w.input.file, times, { signal: ctx.signal, tools: ctx.models.tools, probe, maxWidth: 1280 });
    const faces = await scan.finish(w.seen!.cuts.map((c) => c.time), probe.durationSec, w.input.thumbnailDir, frames);
    return { faces, facesSamePerson: scan.samePerson, warnings: scan.warnings };
  },
};
