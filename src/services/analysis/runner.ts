import type { PipelineInput } from '../../analysis/pipeline.js';
import type { MediaAnalysis } from '../../analysis/types.js';
import type { RunOptions, ThreadPool } from '../threads/pool.js';

/** One analysis to run: what the pipeline reads, and who the job is for. */
export interface AnalysisJob {
  /** A still picture has its own short path; everything else is audio or video. */
  kind: 'image' | 'media';
  input: PipelineInput;
  /** The analysis cache key of the inputs: with the task, the job's identity. */
  key: string;
  /** The task the analysis is for. */
  task: string;
  owner: string;
}

/**
 * A finished analysis, and whether the analysis cache may hand it to other owners who analyse the same
 * inputs: true for what this server made (its threads, its own queue workers), false for what a remote
 * `vidx worker` delivered (its owner's task takes it; nobody else ever receives it).
 */
export interface RunOutcome {
  analysis: MediaAnalysis;
  shared: boolean;
}

/**
 * Where analyses run: this server's threads, or the job queue's workers (services/jobs). Either
 * way the answer is the analysis with its thumbnails and face crops written into `input.thumbnailDir`
 * (a remote worker's delivery: into a folder of its job's own).
 * @example
 * const { analysis, shared } = await runner.run({ kind: 'media', input, key, task, owner }, { signal, progress });
 */
export interface AnalysisRunner {
  run(job: AnalysisJob, o: RunOptions): Promise<RunOutcome>;
}

/**
 * The pipeline's job name of an analysis kind.
 * @example
 * pipelineJob('image'); // 'analyze_image'
 */
export function pipelineJob(kind: AnalysisJob['kind']): 'analyze_image' | 'analyze_media' {
  return kind === 'image' ? 'analyze_image' : 'analyze_media';
}

/**
 * Runs analyses in a pool of threads (the in-process default).
 * @example
 * const analyzer = new Analyzer(models, cache, opts, poolRunner(pool));
 */
export function poolRunner(pool: ThreadPool): AnalysisRunner {
  return { run: async (job, o) => ({ analysis: await pool.run(pipelineJob(job.kind), job.input, o), shared: true }) };
}
