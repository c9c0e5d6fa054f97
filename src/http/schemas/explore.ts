import { z } from '@hono/zod-openapi';
import type { ClusterElement as ClusterElementType, SuggestionElement as SuggestionElementType } from '../../services/explore/index.js';
import { SearchResult } from './search.js';

/**
 * One element of the POST /search_clusters stream (SPEC 2.8).
 * @example
 * content: { 'application/x-ndjson': { schema: z.union([ClusterElement, StreamError]) } }
 */
export const ClusterElement = z
  .object({
    answer: z.string(),
    teaser_id: z.number().int(),
    cluster_results: z.array(SearchResult).openapi({ description: 'The search results of this cluster, best first' }),
    additional_info: z.string().openapi({ description: 'How many moments in which media, with their times; a video and its copies count as one item, the copies said at the end' }),
    related_queries: z.array(z.string()),
  })
  .openapi('ClusterElement', { description: 'One cluster of POST /search_clusters: a streamed element, or one entry of a deferred task’s result' });

/**
 * One element of the POST /collection_suggestions stream (SPEC 2.9).
 * @example
 * z.array(SuggestionElement) // a deferred task's result
 */
export const SuggestionElement = z
  .object({
    completion: z.object({
      type: z.enum(['topic', 'question']),
      text: z.string(),
      media_ids: z.array(z.string()).openapi({ description: 'Media items the suggestion is drawn from (of a video and its copies, one)' }),
      moments: z
        .array(z.object({ media_id: z.string(), episode_id: z.number().int(), start_time: z.number() }))
        .openapi({ description: 'Where in them, at most five moments' }),
    }),
  })
  .openapi('SuggestionElement', { description: 'One topic or question of POST /collection_suggestions: a streamed element, or one entry of a deferred task’s result' });

/**
 * The last element of a stream that failed after it started (src/http/stream.ts): the status was already sent.
 * @example
 * StreamError.parse({ error: { detail: 'search index is gone', code: 'stream_failed' } });
 */
export const StreamError = z
  .object({
    error: z.object({
      detail: z.string(),
      code: z.literal('stream_failed'),
    }),
  })
  .openapi('StreamError', { description: 'Sent as the last element when the work fails after the stream began (the 200 status was already sent)' });

// The documented shapes and the services' types must not drift apart: a change to one fails the typecheck here.
true satisfies SameShape<z.output<typeof ClusterElement>, ClusterElementType>;
true satisfies SameShape<z.output<typeof SuggestionElement>, SuggestionElementType>;

/**
 * `true` when A and B are assignable both ways (a compile-time check that a schema matches a service type).
 * @example
 * true satisfies SameShape<z.output<typeof IndexResult>, IndexResultType>;
 */
export type SameShape<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
