import { clusterElements, type ClusterJobInput } from '../explore/clusters.js';
import { suggestFromEpisodes, type SuggestionsJobInput } from '../explore/suggestions.js';

/**
 * The jobs that may run off the request loop. Each takes and returns plain, structured-cloneable data
 * (no functions, no class instances, no handles), so a job can run inline, in a worker thread, or later
 * in another process or on another machine with the same input and output. A job is pure CPU work: what
 * it needs from SQLite or a model is read by the caller and passed in.
 * @example
 * const out = await jobs.suggestions({ rows, language: 'en', maxTopics: 8 });
 */
export const jobs = {
  /** Topics and questions of a collection (POST /collection_suggestions). */
  suggestions: (input: SuggestionsJobInput) => [...suggestFromEpisodes(input.rows, input.language, input.maxTopics)],
  /** Search hits grouped and described (POST /search_clusters). */
  clusters: (input: ClusterJobInput) => clusterElements(input),
};

export type JobName = keyof typeof jobs;
export type JobInput<N extends JobName> = Parameters<(typeof jobs)[N]>[0];
export type JobOutput<N extends JobName> = ReturnType<(typeof jobs)[N]>;

/** A request to a worker and its answer, as they cross the thread boundary. */
export interface JobMessage {
  id: number;
  name: JobName;
  input: unknown;
}
export type JobReply = { id: number; output: unknown } | { id: number; error: string };
