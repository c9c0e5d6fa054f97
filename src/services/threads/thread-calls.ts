import type { ModelRuntime } from '../../ml/runtime.js';
import type { PipelineInput } from '../../analysis/pipeline.js';
import type { ClusterJobInput } from '../explore/clusters.js';
import type { SuggestionsJobInput } from '../explore/suggestions.js';

/** What a call gets besides its input: cancellation, a progress callback and the thread's own models. */
export interface CallContext {
  signal: AbortSignal;
  progress: (fraction: number, stage: string) => void;
  models: ModelRuntime;
}

/**
 * The calls that may run off the request loop. Each takes and returns plain, structured-cloneable data
 * (no functions, no class instances, no handles), so a call can run inline, in a thread, or later in
 * another process or on another machine with the same input and output. What a call needs from SQLite is
 * read by the caller and passed in; models are the thread's own (ctx.models).
 * @example
 * const out = await calls.suggestions({ rows, language: 'en', maxTopics: 8 }, ctx);
 */
export const calls = {
  // Each call's code loads on its first use: a thread that only analyses photos never loads the English
  // tagger of the topics (wink, ~20 MB a thread), and one that only groups search hits never loads ffmpeg's.
  /** Topics and questions of a collection (POST /collection_suggestions). */
  suggestions: async (input: SuggestionsJobInput, _ctx: CallContext) => [...(await import('../explore/suggestions.js')).suggestFromEpisodes(input.rows, input.language, input.maxTopics)],
  /** Search hits grouped and described (POST /search_clusters). */
  clusters: async (input: ClusterJobInput, _ctx: CallContext) => (await import('../explore/clusters.js')).clusterElements(input),
  /** The audio/video analysis of one file (index, analyze and folder-scan tasks). */
  analyze_media: async (input: PipelineInput, ctx: CallContext) => (await import('../../analysis/pipeline.js')).analyzeFile(input, ctx),
  /** The analysis of one still picture. */
  analyze_image: async (input: PipelineInput, ctx: CallContext) => (await import('../../analysis/image.js')).analyzeImage(input, ctx),
  /** A photo's JPEG for browsers, from its kept HEIC or TIFF (services/shown-pictures.ts), through the thread's file access. */
  browser_picture: async (input: { source: string; target: string }, ctx: CallContext) =>
    (await import('../../media/browser-picture.js')).writeBrowserPicture(ctx.models.tools.files, input.source, input.target),
};

/** A call's name. */
export type CallName = keyof typeof calls;
/** What a call takes. */
export type CallInput<N extends CallName> = Parameters<(typeof calls)[N]>[0];
/** What a call gives back (resolved). */
export type CallOutput<N extends CallName> = Awaited<ReturnType<(typeof calls)[N]>>;

/**
 * Runs a call by name on this thread.
 * @example
 * const analysis = await runCall('analyze_media', input, ctx);
 */
export async function runCall<N extends CallName>(name: N, input: CallInput<N>, ctx: CallContext): Promise<CallOutput<N>> {
  const call = calls[name] as unknown as ((input: CallInput<N>, ctx: CallContext) => CallOutput<N> | Promise<CallOutput<N>>) | undefined;
  // The name crosses a thread boundary as a string: an unknown one is a programming error, said clearly.
  if (typeof call !== 'function') throw new Error(`unknown thread call "${String(name)}"`);
  return call(input, ctx);
}
