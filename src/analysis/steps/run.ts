import type { StageCode } from '../stages.js';
import { stageText } from '../stages.js';
import type { AnalysisWarning } from '../warnings.js';
import type { AnalysisStep, PipelineContext, StepContext, StepOutput, Work, WorkKey } from './step.js';

/**
 * Runs the steps over the work as the list would in order, but each as soon as the earlier steps it depends on
 * are done: one that fills what it reads or uses, reads or uses what it fills, or fills the same. So the sound of
 * a video is read while its shots are found, on the machine's other core, and every step still sees exactly
 * what it would have seen in order. A step reads only what it declares (anything else throws) and fills only
 * what it declares (a step that returns another field is a programming error, said at once, not a field that
 * vanishes later). A step whose `when` says no is passed over. Warnings keep the list's order. A step that
 * fills some fields early (`early`, `ctx.fill`) lets a later step that reads only those start before it ends:
 * the keyframes of a video's first shots are read while the shot pass goes on.
 *
 * The first step that fails stops the others (their signal is aborted) and, once all have settled, is thrown.
 * @example
 * const work = await runSteps(VIDEO_STEPS, { input, warnings: [] }, ctx);
 */
export async function runSteps(steps: readonly AnalysisStep[], work: Work, ctx: PipelineContext): Promise<Work> {
  const stop = new AbortController();
  const signal = AbortSignal.any([ctx.signal, stop.signal]);
  const progress = new StepsProgress(steps, ctx.progress);
  const warnings: AnalysisWarning[][] = steps.map(() => []);
  const done: Promise<void>[] = [];
  /** Each step's early fields filled (or the step done): what a step reading only those waits for. */
  const filledEarly: Promise<void>[] = [];
  let failure: { error: unknown } | null = null;
  steps.forEach((step, i) => {
    let fillEarly = (): void => {};
    const before = dependencies(steps, i).map(({ on, early }) => (early ? filledEarly[on] : done[on]));
    done[i] = Promise.all(before).then(async () => {
      signal.throwIfAborted();
      const view = readable(step, work);
      if (step.when && !step.when(view)) return progress.finished(i);
      const fill = (out: StepOutput): void => {
        assign(step, work, out, step.early ?? [], 'early');
        fillEarly();
      };
      warnings[i] = await runStep(step, work, view, { models: ctx.models, signal, progress: (f, stage) => progress.report(i, f, stage), fill });
      progress.finished(i);
    });
    // The first failure is the one thrown; the others' aborts follow from it.
    done[i].catch((error: unknown) => {
      failure ??= { error };
      stop.abort();
    });
    filledEarly[i] = new Promise<void>((resolve, reject) => {
      fillEarly = resolve;
      done[i].then(resolve, reject);
    });
    // A failure is reported through done[i]; a step waiting for these fields fails with it.
    filledEarly[i].catch(() => {});
  });
  await Promise.allSettled(done);
  if (failure) throw (failure as { error: unknown }).error;
  work.warnings.push(...warnings.flat());
  ctx.progress(1, stageText('done'));
  return work;
}

/**
 * The earlier steps that step `i` waits for: those that fill what it reads, uses or fills, and those that read
 * or use what it fills (it must not change what they are still reading). When all it reads of one are fields
 * that step fills early, and nothing else ties them, it waits only for those.
 */
function dependencies(steps: readonly AnalysisStep[], i: number): { on: number; early: boolean }[] {
  const seen = (s: AnalysisStep): readonly WorkKey[] => [...s.reads, ...(s.uses ?? [])];
  const step = steps[i]!;
  const reads = new Set<WorkKey>(seen(step));
  const fills = new Set<WorkKey>(step.fills);
  const out: { on: number; early: boolean }[] = [];
  for (let j = 0; j < i; j++) {
    const earlier = steps[j]!;
    const readOfIt = earlier.fills.filter((k) => reads.has(k));
    const hazard = earlier.fills.some((k) => fills.has(k)) || seen(earlier).some((k) => fills.has(k));
    if (hazard || readOfIt.length > 0) out.push({ on: j, early: !hazard && readOfIt.every((k) => earlier.early?.includes(k)) });
  }
  return out;
}

/** The work as a step may read it: its input, its declared reads and uses, nothing else. */
function readable(step: AnalysisStep, work: Work): Readonly<Work> {
  const allowed = new Set<string>(['input', 'warnings', ...step.reads, ...(step.uses ?? [])]);
  return new Proxy(work, {
    get(target, key, receiver) {
      if (typeof key === 'string' && !allowed.has(key)) throw new Error(`analysis step "${step.stage}" read ${key}, which it does not declare`);
      return Reflect.get(target, key, receiver);
    },
  });
}

async function runStep(step: AnalysisStep, work: Work, view: Readonly<Work>, stepCtx: StepContext): Promise<AnalysisWarning[]> {
  for (const key of step.reads) if (work[key] === undefined) throw new Error(`analysis step "${step.stage}" reads ${key}, which no step before it filled`);
  stepCtx.progress(0, step.stage);
  const out = await step.run(view, stepCtx);
  assign(step, work, out, step.fills, 'fills');
  return out.warnings ?? [];
}

/** Puts a step's output into the work, refusing any field it does not declare (a programming error). */
function assign(step: AnalysisStep, work: Work, out: StepOutput, allowed: readonly WorkKey[], declared: 'fills' | 'early'): void {
  for (const key of Object.keys(out)) {
    if (key !== 'warnings' && !(allowed as readonly string[]).includes(key)) {
      throw new Error(`analysis step "${step.stage}" filled ${key}${declared === 'early' ? ' early' : ''}, which it does not declare`);
    }
  }
  for (const [key, value] of Object.entries(out)) if (key !== 'warnings') (work as unknown as Record<string, unknown>)[key] = value;
}

/**
 * The analysis's progress while steps run side by side: the sum of each step's share times how far it is (a
 * step passed over or done counts whole), never going back; its words are the stage of the first step in the
 * list still running, so two steps at once do not make the stage flicker between them.
 */
class StepsProgress {
  private readonly fraction: number[];
  private readonly stage: (StageCode | null)[];
  private readonly running = new Set<number>();
  private shown = 0;

  constructor(
    private readonly steps: readonly AnalysisStep[],
    private readonly say: (fraction: number, stage: string) => void,
  ) {
    this.fraction = steps.map(() => 0);
    this.stage = steps.map(() => null);
  }

  report(i: number, fraction: number, stage: StageCode): void {
    this.running.add(i);
    this.fraction[i] = Math.min(1, Math.max(this.fraction[i]!, fraction));
    this.stage[i] = stage;
    if (Math.min(...this.running) === i) this.sayFirst();
  }

  finished(i: number): void {
    const wasFirst = this.running.size > 0 && Math.min(...this.running) === i;
    this.running.delete(i);
    this.fraction[i] = 1;
    // The step running beside it may have said nothing since it started: its stage is said now.
    if (wasFirst && this.running.size > 0) this.sayFirst();
  }

  private sayFirst(): void {
    const first = Math.min(...this.running);
    this.shown = Math.max(this.shown, this.steps.reduce((sum, s, k) => sum + s.share * this.fraction[k]!, 0));
    this.say(this.shown, stageText(this.stage[first]!));
  }
}
