import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv, App, HttpDeps } from '../env.js';
import { readFormBody } from '../middleware/form-body/index.js';
import { errors, queryBool, SECURITY } from '../schemas/common.js';
import { ClusterElement, StreamError, SuggestionElement } from '../schemas/explore.js';
import { formEnvelope, SearchClustersBody, SuggestionsBody } from '../schemas/submissions.js';
import { TaskCreated } from '../schemas/tasks.js';
import { streamElements } from '../stream.js';
import { validationProblem } from '../validation.js';

const DeferQuery = z.object({ defer: queryBool() });

/**
 * The 200 of a streaming endpoint: each record is one `element` (or, last, a StreamError), framed as
 * application/json-seq (RS, JSON, LF; the default) or application/x-ndjson (JSON, LF; when Accept asks for it).
 * The schema is the one record's, as OpenAPI 3.1 has no way to say "a sequence of".
 */
const streamed = (element: z.ZodType, what: string) => {
  const record = { schema: z.union([element, StreamError]) };
  return {
    200: {
      description: `${what}, streamed: each record is one element (a StreamError as the last record if the work fails midway)`,
      content: { 'application/json-seq': record, 'application/x-ndjson': record },
    },
    202: { description: 'defer=true: queued; the finished task’s result is the list of elements', content: { 'application/json': { schema: TaskCreated } } },
  };
};

const clustersRoute = createRoute({
  method: 'post', path: '/search_clusters', operationId: 'searchClusters', tags: ['search'], security: SECURITY, summary: 'Search with clustered results, streamed (elements: ClusterElement)',
  request: { query: DeferQuery, body: { required: true, content: formEnvelope(SearchClustersBody) } },
  responses: { ...streamed(ClusterElement, 'One ClusterElement per cluster'), ...errors(400, 401, 404, 413, 415, 422) },
});

const suggestionsRoute = createRoute({
  method: 'post', path: '/collection_suggestions', operationId: 'getCollectionSuggestions', tags: ['search'], security: SECURITY, summary: 'Topics and questions from a collection, streamed (elements: SuggestionElement)',
  request: { query: DeferQuery, body: { required: true, content: formEnvelope(SuggestionsBody) } },
  responses: { ...streamed(SuggestionElement, 'One SuggestionElement per topic or question'), ...errors(400, 401, 404, 413, 415, 422) },
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
  app.openAPIRegistry.registerPath(clustersRoute);
  app.openAPIRegistry.registerPath(suggestionsRoute);
  const noUploads = { ...deps.form, maxUploadBytes: 0 };

  app.post('/search_clusters', async (c: Context<AppEnv>) => {
    const deferred = defer(c);
    const { value } = await readFormBody(c, SearchClustersBody, noUploads);
    const caller = c.get('caller');
    const collectionPk = deps.explore.check(caller, value.collection, value.search_public_collections);
    if (deferred) return c.json({ task_id: deps.tasks.create(caller, 'clusters', { request: value }, collectionPk).id }, 202);
    const controller = new AbortController();
    return streamElements(c, deps.explore.clusters(caller, value, controller.signal), controller);
  });

  app.post('/collection_suggestions', async (c: Context<AppEnv>) => {
    const deferred = defer(c);
    const { value } = await readFormBody(c, SuggestionsBody, noUploads);
    const caller = c.get('caller');
    const collectionPk = deps.explore.check(caller, value.collection, value.search_public_collections);
    if (deferred) return c.json({ task_id: deps.tasks.create(caller, 'suggestions', { request: value }, collectionPk).id }, 202);
    const controller = new AbortController();
    return streamElements(c, deps.explore.suggestions(caller, value, controller.signal), controller);
  });
}
