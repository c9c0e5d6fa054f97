import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv, App, HttpDeps } from '../env.js';
import { readFormBody } from '../middleware/form-body/index.js';
import { errors, queryBool, SECURITY } from '../schemas/common.js';
import { formEnvelope, SearchBody, SearchClustersBody, SuggestionsBody } from '../schemas/jobs.js';
import { Problem } from '../../services/errors.js';
import { validationProblem } from '../validation.js';

const DeferQuery = z.object({ defer: queryBool() });

const searchRoute = createRoute({
  method: 'post', path: '/search', tags: ['search'], security: SECURITY, summary: 'Search one collection',
  request: { body: { required: true, content: formEnvelope(SearchBody) } },
  responses: { 200: { description: 'Results (SPEC 2.7)' }, ...errors(400, 401, 404, 413, 415, 422) },
});

const clustersRoute = createRoute({
  method: 'post', path: '/search_clusters', tags: ['search'], security: SECURITY, summary: 'Search with clustered, streamed results',
  request: { query: DeferQuery, body: { required: true, content: formEnvelope(SearchClustersBody) } },
  responses: { 200: { description: 'application/json-seq stream (SPEC 2.8)' }, ...errors(400, 401, 404, 413, 415, 422) },
});

const suggestionsRoute = createRoute({
  method: 'post', path: '/collection_suggestions', tags: ['search'], security: SECURITY, summary: 'Topics and questions from a collection, streamed',
  request: { query: DeferQuery, body: { required: true, content: formEnvelope(SuggestionsBody) } },
  responses: { 200: { description: 'application/json-seq stream (SPEC 2.9)' }, ...errors(400, 401, 404, 413, 415, 422) },
});

function defer(c: Context<AppEnv>): boolean {
  const parsed = DeferQuery.safeParse({ defer: c.req.query('defer') });
  if (!parsed.success) throw validationProblem(parsed.error.issues);
  return parsed.data.defer;
}

const NOT_YET = 'searching needs the search index, which this vidx build does not have yet';

/**
 * POST /search, /search_clusters and /collection_suggestions: the form convention, validation and
 * the collection lookup (404 for a collection the key may not read).
 * @example
 * searchRoutes(app, deps);
 */
export function searchRoutes(app: App, deps: HttpDeps): void {
  app.openAPIRegistry.registerPath(searchRoute);
  app.openAPIRegistry.registerPath(clustersRoute);
  app.openAPIRegistry.registerPath(suggestionsRoute);

  app.post('/search', async (c: Context<AppEnv>) => {
    const { value } = await readFormBody(c, SearchBody, { ...deps.form, maxUploadBytes: 0 });
    deps.collections.readable(c.get('caller'), value.collection);
    throw new Problem('not_implemented', NOT_YET);
  });

  app.post('/search_clusters', async (c: Context<AppEnv>) => {
    defer(c);
    const { value } = await readFormBody(c, SearchClustersBody, { ...deps.form, maxUploadBytes: 0 });
    deps.collections.readable(c.get('caller'), value.collection, { public: value.search_public_collections });
    throw new Problem('not_implemented', NOT_YET);
  });

  app.post('/collection_suggestions', async (c: Context<AppEnv>) => {
    defer(c);
    const { value } = await readFormBody(c, SuggestionsBody, { ...deps.form, maxUploadBytes: 0 });
    deps.collections.readable(c.get('caller'), value.collection, { public: value.search_public_collections });
    throw new Problem('not_implemented', NOT_YET);
  });
}
