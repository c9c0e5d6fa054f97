import type { TaskEngine } from '../task-engine.js';
import { removeTaskUpload, type AnalyzeTaskData } from '../submissions.js';
import type { StorageRepository } from '../../store/storage.js';
import type { Analyzer } from './analyzer.js';
import { analyzeResult } from '../../analysis/result.js';

/**
 * Registers the /analyze task: fetch the media, analyse it (or reuse the analysis of the same content),
 * and return the SPEC 2.5 result.
 * @example
 * registerAnalyzeTask(engine, analyzer, store.storage);
 */
export function registerAnalyzeTask(engine: TaskEngine, analyzer: Analyzer, storage: Pick<StorageRepository, 'removeUpload'>): void {
  engine.register<AnalyzeTaskData>('analyze', async (ctx) => {
    const { analysis, reused } = await analyzer.run(ctx.data.video, ctx.data.upload, null, ctx);
    removeTaskUpload(ctx.data, storage);
    return analyzeResult(analysis, reused);
  });
}
