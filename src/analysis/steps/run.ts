import { stageText } from '../stages.js';
import type { AnalysisWarning } from '../warnings.js';
import type { AnalysisStep, PipelineContext, StepContext, Work } from './step.js';

/**
 * Runs steps in order over the work: each gets the progress between the shares before it and its own, reads
 * only what earlier steps filled, and fills only what it declares (a step that returns another field is a
 * programming error, said at once, not a field that vanishes later). A step whose `when` says no is passed over.
 * @example
 * const work = await runSteps(VIDEO_STEPS, { input, warnings: [] }, ctx);
 */
export async function runSteps(steps: readonly AnalysisStep[], work: Work, ctx: PipelineContext): Promise<Work> {
  let from = 0;
  for (const step of steps) {
    const to = from + step.share;
    ctx.signal.throwIfAborted();
    if (!step.when || step.when(work)) await runStep(step, work, ctx, from, to);
    from = to;
  }
  ctx.progress(1, stageText('done'));
  return work;
}

async function runStep(step: AnalysisStep, work: Work, ctx: PipelineContext, from: number, to: number): Promise<void> {
  for (const key of step.reads) if (work[key] === undefined) throw new Error(`analysis step "${step.stage}" reads ${key}, which no step before it filled`);
  const stepCtx: StepContext = {
    models: ctx.models,
    signal: ctx.signal,
    progress: (f, stage) => ctx.progress(from + (to - from) * Math.min(1, Math.max(0, f)), stageText(stage)),
  };
  stepCtx.progress(0, step.stage);
  const out = await step.run(work, stepCtx);
  for (const [key, value] of Object.entries(out)) {
    if (key === 'warnings') work.warnings.push(...(value as AnalysisWarning[]));
    else if (!(step.fills as readonly string[]).includes(key)) throw new Error(`analysis step "${step.stage}" filled ${key}, which it does not declare`);
    else (work as unknown as Record<string, unknown>)[key] = value;
  }
}
