import type { TaskContext, TaskEngine } from '../../src/services/task-engine.js';

/**
 * A stand-in for the analysis pipeline on POST /analyze, steered by `video.title`:
 * `ok` completes, `fail` fails, `fail-once` fails on its first run, `block` runs until cancelled,
 * `gate` waits for `release()`, `deaf` waits for `release()` and does not hear a cancel (a step too busy to
 * look). Real engine, real HTTP; only the work is pretend.
 * @example
 * const fake = fakeAnalyze();
 * const s = await startTestServer({ registerTasks: fake.register });
 */
export function fakeAnalyze() {
  const runs = new Map<string, number>();
  const aborted = new Set<string>();
  let release: () => void = () => {};
  let gate = new Promise<void>((r) => (release = r));
  const handler = async (ctx: TaskContext<{ video: { title: string | null } }>) => {
    const n = (runs.get(ctx.id) ?? 0) + 1;
    runs.set(ctx.id, n);
    const mode = ctx.data.video.title ?? 'ok';
    ctx.progress(0.25, 'working');
    if (mode === 'fail' || (mode === 'fail-once' && n === 1)) throw new Error(`pretend failure on run ${n}`);
    if (mode === 'deaf') await gate;
    if (mode === 'block' || mode === 'gate') {
      await new Promise<void>((resolve, reject) => {
        const onAbort = () => {
          aborted.add(ctx.id);
          reject(new Error('aborted'));
        };
        if (ctx.signal.aborted) return onAbort();
        ctx.signal.addEventListener('abort', onAbort, { once: true });
        if (mode === 'gate') void gate.then(resolve);
      });
    }
    ctx.progress(0.9, 'finishing');
    return { echo: ctx.data, run: n };
  };
  return {
    runs,
    aborted,
    release: () => {
      release();
      gate = new Promise<void>((r) => (release = r));
    },
    register: (engine: TaskEngine) => engine.register('analyze', handler),
  };
}
