import { soundPrint } from '../../media/sound-print.js';
import type { AnalysisStep } from './step.js';

/**
 * A video's sound print (media/sound-print.ts): duplicates ask the sound as well as the frames, since two
 * slides of one colour with other voices are no copies.
 * @example
 * soundStep.fills; // ['soundPrint']
 */
export const soundStep: AnalysisStep = {
  stage: 'sound',
  share: 0.02,
  reads: ['probe'],
  fills: ['soundPrint'],
  when: (w) => Boolean(w.probe?.video && w.probe.audio),
  run: async (w, ctx) => ({ soundPrint: await soundPrint(w.input.file, { signal: ctx.signal, tools: ctx.models.tools }) }),
};
