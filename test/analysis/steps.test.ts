/**
 * Issue 44: an analysis step is one file. The runner hands each step the work so far, keeps it to what it
 * declares, and gives progress by the steps' shares in their stages' words. Issue 48: steps that share nothing
 * run side by side, and each still sees what it would have seen in order.
 */
import { describe, expect, it } from 'vitest';
import { VIDEO_STEPS } from '../../src/analysis/pipeline.js';
import { ANALYSIS_STAGES } from '../../src/analysis/stages.js';
import { runSteps } from '../../src/analysis/steps/run.js';
import type { AnalysisStep, PipelineContext, Work } from '../../src/analysis/steps/step.js';
import { ModelRuntime } from '../../src/ml/runtime.js';

const input = { file: '/nowhere.mp4', sourcePath: null, title: null, metadata: null, language: null, thumbnailDir: '/tmp' } as const;
function context(progress: [number, string][] = []): PipelineContext {
  return { models: new ModelRuntime({ modelsDir: '/nowhere' }), signal: new AbortController().signal, progress: (f, s) => progress.push([f, s]) };
}

/** A promise a step waits on, and the call that lets it go on. */
function gate(): { held: Promise<void>; release: () => void } {
  let release!: () => void;
  const held = new Promise<void>((r) => {
    release = r;
  });
  return { held, release };
}

describe('the analysis steps', () => {
  it('add up to the whole progress, each reporting stages the table names', () => {
    expect(VIDEO_STEPS.reduce((s, step) => s + step.share, 0)).toBeCloseTo(1, 9);
    for (const step of VIDEO_STEPS) for (const stage of [step.stage, ...(step.stages ?? [])]) expect(Object.keys(ANALYSIS_STAGES)).toContain(stage);
  });

  it('each reads only what a step before it fills', () => {
    const filled = new Set<string>();
    for (const step of VIDEO_STEPS) {
      for (const key of [...step.reads, ...(step.uses ?? [])]) expect(filled.has(key), `${step.stage} reads ${key}`).toBe(true);
      for (const key of step.early ?? []) expect(step.fills, `${step.stage} fills ${key} early`).toContain(key);
      for (const key of step.fills) filled.add(key);
    }
  });

  it('runs steps in order with progress by their shares, and passes over a step that does not apply', async () => {
    const progress: [number, string][] = [];
    const one: AnalysisStep = { stage: 'probing', share: 0.25, reads: [], fills: ['language'], run: async () => ({ language: 'de', warnings: ['first'] }) };
    const skipped: AnalysisStep = { stage: 'sound', share: 0.25, reads: [], fills: ['soundPrint'], when: () => false, run: async () => ({ soundPrint: null }) };
    const two: AnalysisStep = {
      stage: 'summaries', share: 0.5, reads: ['language'], fills: ['summary'],
      run: async (w, ctx) => {
        ctx.progress(0.5, 'summaries');
        return { summary: `in ${w.language}` };
      },
    };
    const work = await runSteps([one, skipped, two], { input, warnings: [] } as Work, context(progress));
    expect(work).toMatchObject({ language: 'de', summary: 'in de', warnings: ['first'] });
    expect(work.soundPrint).toBeUndefined();
    expect(progress).toEqual([[0, 'probing'], [0.5, 'summaries'], [0.75, 'summaries'], [1, 'done']]);
  });

  it('refuses a step that fills what it does not declare, or reads what nothing filled', async () => {
    const sly: AnalysisStep = { stage: 'faces', share: 1, reads: [], fills: ['faces'], run: async () => ({ faces: [], summary: 'not mine' }) };
    await expect(runSteps([sly], { input, warnings: [] } as Work, context())).rejects.toThrow(/"faces" filled summary, which it does not declare/);
    const early: AnalysisStep = { stage: 'episodes', share: 1, reads: ['transcribed'], fills: ['spans'], run: async () => ({ spans: [] }) };
    await expect(runSteps([early], { input, warnings: [] } as Work, context())).rejects.toThrow(/reads transcribed, which no step before it filled/);
  });

  it('runs steps that share nothing side by side, and a step after both once both are done', async () => {
    const events: string[] = [];
    const { held, release } = gate();
    const slow: AnalysisStep = {
      stage: 'shot_detection', share: 0.4, reads: [], fills: ['seen'],
      run: async () => {
        events.push('slow starts');
        await held;
        events.push('slow ends');
        return { seen: { cuts: [] } as never };
      },
    };
    const quick: AnalysisStep = {
      stage: 'sound', share: 0.4, reads: [], fills: ['soundPrint'],
      run: async () => {
        events.push('quick runs');
        release();
        return { soundPrint: null, warnings: ['from quick'] as never };
      },
    };
    const last: AnalysisStep = {
      stage: 'episodes', share: 0.2, reads: ['soundPrint'], uses: ['seen'], fills: ['spans'],
      run: async (w) => {
        events.push(`last sees ${w.seen ? 'seen' : 'nothing'}`);
        return { spans: [], warnings: ['from last'] as never };
      },
    };
    const slowWarns: AnalysisStep = { ...slow, run: async (w, ctx) => ({ ...(await slow.run(w, ctx)), warnings: ['from slow'] as never }) };
    const work = await runSteps([slowWarns, quick, last], { input, warnings: [] } as Work, context());
    // The quick step ran while the slow one waited (it is what let it go on); the last waited for both.
    expect(events).toEqual(['slow starts', 'quick runs', 'slow ends', 'last sees seen']);
    // Warnings keep the list's order, whichever step ended first.
    expect(work.warnings).toEqual(['from slow', 'from quick', 'from last']);
  });

  it('says the stage of the first step in the list still running, and a progress that never goes back', async () => {
    const progress: [number, string][] = [];
    const { held, release } = gate();
    const quick: AnalysisStep = { stage: 'transcript', share: 0.5, reads: [], fills: ['language'], run: async () => ({ language: 'en' }) };
    const slow: AnalysisStep = {
      stage: 'shot_detection', share: 0.5, reads: [], fills: ['soundPrint'],
      run: async (_w, ctx) => {
        await held;
        ctx.progress(0.5, 'shot_detection');
        return { soundPrint: null };
      },
    };
    const waiting = runSteps([quick, slow], { input, warnings: [] } as Work, context(progress));
    await new Promise((r) => setImmediate(r));
    // The transcript ended while the shots were still being found: the shots' stage is said at once.
    expect(progress).toEqual([[0, 'transcript'], [0.5, 'shot detection']]);
    release();
    await waiting;
    expect(progress.slice(2)).toEqual([[0.75, 'shot detection'], [1, 'done']]);
  });

  it('refuses a step that reads what it does not declare', async () => {
    const nosy: AnalysisStep = { stage: 'episodes', share: 1, reads: [], fills: ['spans'], run: async (w) => ({ spans: w.seen ? [] : [] }) };
    await expect(runSteps([nosy], { input, warnings: [] } as Work, context())).rejects.toThrow(/"episodes" read seen, which it does not declare/);
  });

  it('stops the steps running beside one that fails, and throws its error once all have settled', async () => {
    let stoppedAt: string | null = null;
    const waits: AnalysisStep = {
      stage: 'shot_detection', share: 0.5, reads: [], fills: ['seen'],
      run: (_w, ctx) =>
        new Promise((_resolve, reject) => {
          ctx.signal.addEventListener('abort', () => {
            stoppedAt = 'aborted';
            reject(ctx.signal.reason);
          });
        }),
    };
    const fails: AnalysisStep = { stage: 'sound', share: 0.5, reads: [], fills: ['soundPrint'], run: async () => Promise.reject(new Error('ffmpeg broke')) };
    await expect(runSteps([waits, fails], { input, warnings: [] } as Work, context())).rejects.toThrow('ffmpeg broke');
    expect(stoppedAt).toBe('aborted');
  });

  it('starts a step that reads only what another fills early before that one ends, and not one that reads the rest', async () => {
    const events: string[] = [];
    const { held, release } = gate();
    const filler: AnalysisStep = {
      stage: 'shot_detection', share: 0.4, reads: [], fills: ['language', 'soundPrint'], early: ['language'],
      run: async (_w, ctx) => {
        ctx.fill({ language: 'de' });
        events.push('filled early');
        await held;
        events.push('filler ends');
        return { soundPrint: null };
      },
    };
    const reader: AnalysisStep = {
      stage: 'on_screen_text', share: 0.3, reads: ['language'], fills: ['summary'],
      run: async (w) => {
        events.push(`reader reads ${w.language}`);
        release();
        return { summary: w.language };
      },
    };
    const after: AnalysisStep = {
      stage: 'episodes', share: 0.3, reads: ['language', 'soundPrint'], fills: ['spans'],
      run: async () => {
        events.push('after runs');
        return { spans: [] };
      },
    };
    const work = await runSteps([filler, reader, after], { input, warnings: [] } as Work, context());
    expect(events).toEqual(['filled early', 'reader reads de', 'filler ends', 'after runs']);
    expect(work).toMatchObject({ language: 'de', summary: 'de', soundPrint: null, spans: [] });
  });

  it('refuses an early fill of a field not declared early, and fails a reader with the error of the step it waits for', async () => {
    const sly: AnalysisStep = {
      stage: 'shot_detection', share: 1, reads: [], fills: ['language'],
      run: async (_w, ctx) => {
        ctx.fill({ language: 'de' });
        return {};
      },
    };
    await expect(runSteps([sly], { input, warnings: [] } as Work, context())).rejects.toThrow(/"shot_detection" filled language early, which it does not declare/);
    let readerRan = false;
    const breaks: AnalysisStep = { stage: 'shot_detection', share: 0.5, reads: [], fills: ['language'], early: ['language'], run: async () => Promise.reject(new Error('no shots')) };
    const reader: AnalysisStep = {
      stage: 'on_screen_text', share: 0.5, reads: ['language'], fills: ['summary'],
      run: async () => {
        readerRan = true;
        return {};
      },
    };
    await expect(runSteps([breaks, reader], { input, warnings: [] } as Work, context())).rejects.toThrow('no shots');
    expect(readerRan).toBe(false);
  });
});
