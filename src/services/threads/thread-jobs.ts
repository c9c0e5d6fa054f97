import type { ModelRuntime } from '../../ml/runtime.js';
import type { PipelineInput } from '../../analysis/pipeline.js';
import { clusterElements, type ClusterJobInput } from '../explore/clusters.js';
import { suggestFromEpisodes, type SuggestionsJobInput } from '../explore/suggestions.js';

/** What a job gets besides its input: cancellation, a progress callback and the thread's own models. */
export interface JobContext {
  signal: AbortSignal;
  progress: (fraction: number, stage: string) => void;
  models: ModelRuntime;
}

/**
 * The jobs that may run off the request loop. Each takes and returns plain, structured-cloneable data
 * (no functions, no class instances, no handles), so a job can run inline, in a worker thread, or later in
 * another process or on another machine with the same input and output. What a job needs from SQLite is
 * read by the caller and passed in; models are the thread's own (ctx.models).
 * @example
 * const out = await jobs.suggestions({ rows, language: 'en', maxTopics: 8 }, ctx);
 */
export const jobs = {
  /** Topics and questions of a collection (POST /collection_suggestions). */
  suggestions: (input: SuggestionsJobInput, _ctx: JobContext) => [...suggestFromEpisodes(input.rows, input.language, input.maxTopics)],
  /** Search hits grouped and described (POST /search_clusters). */
  clusters: (input: ClusterJobInput, _ctx: JobContext) => clusterElements(input),
  // The analyses load on first use, so a thread that only groups search hits starts light.
  /** The audio/video analysis of one file (index, analyze and folder-scan tasks). */
  analyze_media: async (input: PipelineInput, ctx: JobContext) => (await import('../../analysis/pipeline.js')).analyzeFile(input, ctx),
  /** The analysis of one still picture. */
  analyze_image: async (input: PipelineInput, ctx: JobContext) => (await import('../../analysis/image.js')).analyzeImage(input, ctx),
  /** A photo's JPEG for browsers, from its kept HEIC or TIFF (services/shown-pictures.ts), through the thread's file access. */
  browser_picture: async (input: { source: string; target: string }, ctx: JobContext) =>
    (await import('../../media/browser-picture.js')).writeBrowserPicture(ctx.models.tools.files, input.source, input.target),
};

/** A job's name. */
export type JobName = keyof typeof jobs;
/** What a job takes. */
export type JobInput<N extends JobName> = Parameters<(typeof jobs)[N]>[0];
/** What a job gives back (resolved). */
export type JobOutput<N extends JobName> = Awaited<ReturnType<(typeof jobs)[N]>>;

/**
 * Runs a job by name on this thread.
 * @example
 * const analysis = await runJob('analyze_media', input, ctx);
 */
export async function runJob<N extends JobName>(name: N, input: JobInput<N>, ctx: JobContext): Promise<JobOutput<N>> {
  const job = jobs[name] as unknown as ((input: JobInput<N>, ctx: JobContext) => JobOutput<N> | Promise<JobOutput<N>>) | undefined;
  // The name crosses a thread boundary as a string: an unknown one is a programming error, said clearly.
  if (typeof job !== 'function') throw new Error(`unknown job "${String(name)}"`);
  return job(input, ctx);
}
