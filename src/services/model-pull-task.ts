import { pull } from '../ml/registry/pull.js';
import type { Manifest } from '../ml/registry/manifest.js';
import type { TaskEngine } from './task-engine.js';
import type { ModelPullData } from './models.js';

/** The result of a completed model pull. */
export interface ModelPullResult {
  model_id: string;
  /** It was complete already: nothing was fetched. */
  already_installed: boolean;
  bytes_fetched: number;
}

/**
 * Registers the model pull task: the same download, resume, size and checksum checks as `vidx models pull`,
 * with the bytes done as the task's progress.
 * @example
 * registerModelPullTask(engine, { manifest, modelsDir, hubUrl: 'https://huggingface.co' });
 */
export function registerModelPullTask(engine: TaskEngine, opts: { manifest: Manifest; modelsDir: string; hubUrl: string }): void {
  engine.register<ModelPullData>('model_pull', async (ctx): Promise<ModelPullResult> => {
    const id = ctx.data.model_id;
    const result = await pull([id], {
      hubUrl: opts.hubUrl,
      modelsDir: opts.modelsDir,
      manifest: opts.manifest,
      signal: ctx.signal,
      onProgress: (p) => ctx.progress(p.bytesTotal > 0 ? p.bytesDone / p.bytesTotal : 0, 'downloading'),
    });
    return { model_id: id, already_installed: result.alreadyInstalled.includes(id), bytes_fetched: result.bytesFetched };
  });
}
