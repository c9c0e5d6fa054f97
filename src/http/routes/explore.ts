import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv, App, HttpDeps } from '../env.js';
import { readFormBody } from '../middleware/form-body/index.js';
import { errors, queryBool, SECURITY } from '../schemas/common.js';
import { formEnvelope, SearchClustersBody, SuggestionsBody } from '../schemas/jobs.js';
import { TaskCreated } from '../schemas/tasks.js';
import { streamElements } from '../stream.js';
import { validationProblem } from '../validation.js';
import { SearchResult } from './search.js';

const DeferQuery = z.object({ defer: queryBool() });

const streamed = (what: string) => ({
  200: {
    description: `${what}, streamed as application/json-seq (RS, JSON, LF per element; default) or application/x-ndjson (when Accept asks for it)`,
    content: { 'application/json-seq': { schema: z.string() }, 'application/x-ndjson': { schema: z.string() } },
  },
  202: { description: 'defer=true: queued; the finished task’s result is the list of elements', content: { 'application/json': { schema: TaskCreated } } },
});

const ClusterElement = z
  .object({
    answer: z.string(),
    teaser_id: z.number().int(),
    cluster_results: z.array(SearchResult).openapi({ description: 'The search results of this cluster, best first' }),
    additional_info: z.string().openapi({ description: 'How many moments in which media, with their times' }),
    related_queries: z.array(z.string()),
  })
  .openapi('ClusterElement');

const SuggestionElement = z
  .object({
    completion: z.object({
      type: z.enum(['topic', 'question']),
      text: z.string(),
      media_ids: z.array(z.string()),
      moments: z.array(z.object({ media_id: z.string(), episode_id: z.number().int(), start_time: z.number() })),
    }),
  })
  .openapi('SuggestionElement');

const clustersRoute = createRoute({
  method: 'post', path: '/search_clusters', tags: ['search'], security: SECURITY, summary: 'Search with clustered results, streamed (elements: ClusterElement)',
  request: { query: DeferQuery, body: { required: true, content: formEnvelope(SearchClustersBody) } },
  responses: { ...streamed('One ClusterElement per cluster'), ...errors(400, 401, 404, 413, 415, 422) },
});

const suggestionsRoute = createRoute({
  method: 'post', path: '/collection_suggestions', tags: ['search'], security: SECURITY, summary: 'Topics and questions from a collection, streamed (elements: SuggestionElement)',
  request: { query: DeferQuery, body: { required: true, content: formEnvelope(SuggestionsBody) } },
  responses: { ...streamed('One SuggestionElement per topic or question'), ...errors(400, 401, 404, 413, 415, 422) },
});

function defer(c: Context<AppEnv>): boolean {
  const parsed = DeferQuery.safeParse({ defer: c.req.query('defer') });
  if (!parsed.success) throw validationProblem(parsed.error.issues);
  return parsed.data.defer;
}

/**
 * POST /search_clusters and /collection_suggestions: validated, visibility checked, then streamed
 * (or queued as a task with ?defer=true).
 * @example
 * exploreRoutes(app, deps);
 */
export function exploreRoutes(app: App, deps: HttpDeps): void {
  app.openAPIRegistry.register('ClusterElement', ClusterElement);
  app.openAPIRegistry.register('SuggestionElement', SuggestionElement);
  app.openAPIRegistry.registerPath(clustersRoute);
  app.openAPIRegistry.registerPath(suggestionsRoute);
  const noUploads = { ...deps.form, maxUploadBytes: 0 };

  app.post('/search_clusters', async (c: Context<AppEnv>) => {
    const deferred = defer(c);
    const { value } = await readFormBody(c, SearchClustersBody, noUploads);
    const caller = c.get('caller');
    const collectionPk = deps.explore.check(caller, value.collection, value.search_public_collections);
    if (deferred) return c.json({ task_id: deps.tasks.create(caller, '/search_clusters', { request: value }, collectionPk).id }, 202);
    const controller = new AbortController();
    return streamElements(c, deps.explore.clusters(caller, value, controller.signal), controller);
  });

  app.post('/collection_suggestions', async (c: Context<AppEnv>) => {
    const deferred = defer(c);
    const { value } = await readFormBody(c, SuggestionsBody, noUploads);
    const caller = c.get('caller');
    const collectionPk = deps.explore.check(caller, value.collection, value.search_public_collections);
    if (deferred) return c.json({ task_id: deps.tasks.create(caller, '/collection_suggestions', { request: value }, collectionPk).id }, 202);
    const controller = new AbortController();
    return streamElements(c, deps.explore.suggestions(caller, value, controller.signal), controller);
  });
}
