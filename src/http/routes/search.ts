import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv, App, HttpDeps } from '../env.js';
import { readFormBody } from '../middleware/form-body/index.js';
import { errors, queryBool, SECURITY } from '../schemas/common.js';
import { formEnvelope, SearchBody, SearchClustersBody, SuggestionsBody } from '../schemas/jobs.js';
import { Problem } from '../../services/errors.js';
import { validationProblem } from '../validation.js';

const DeferQuery = z.object({ defer: queryBool() });

const Span = { start: z.number(), end: z.number() };

const SearchResult = z
  .object({
    audio: z.array(z.object({ ...Span, text: z.string() })).openapi({ description: 'The transcript segments of the episode' }),
    computer_vision: z.array(z.object({ ...Span, summary: z.string() })).openapi({ description: 'The visual entries of the episode' }),
    content: z.string().openapi({ description: 'The passage that matched, else the episode summary' }),
    episode_id: z.number().int().openapi({ description: 'Index of the episode within its media' }),
    image_url: z.string().openapi({ description: 'Signed thumbnail URL; empty when the media has no picture' }),
    media_id: z.string(),
    score: z.number().min(0).max(1).openapi({ description: 'Relevance 0..1 (1: first in every ranking consulted); comparable within one response' }),
    src: z.string().openapi({ description: 'Source URL, else a signed link to the stored media file, with #t=<start_time>; empty when neither exists' }),
    start_time: z.number().openapi({ description: 'Seconds: start of the best matching segment inside the episode' }),
  })
  .openapi('SearchResult');

const searchRoute = createRoute({
  method: 'post', path: '/search', tags: ['search'], security: SECURITY, summary: 'Search one collection',
  description: 'Hybrid search: words (English stemming), word parts (trigrams, for compounds) and, with models installed, text and frame vectors, fused per episode. The query is plain text: FTS operators and quotes are taken as words (balanced double quotes keep a phrase).',
  request: { body: { required: true, content: formEnvelope(SearchBody) } },
  responses: {
    200: { description: 'Results (SPEC 2.7), best first', content: { 'application/json': { schema: z.object({ results: z.array(SearchResult) }) } } },
    ...errors(400, 401, 404, 413, 415, 422),
  },
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

const NOT_YET = 'clustered search and suggestions are not in this vidx build yet';

/**
 * POST /search (hybrid search over the index), /search_clusters and /collection_suggestions (validated,
 * then 501): the form convention, validation and the collection lookup (404 for a collection the key may not read).
 * @example
 * searchRoutes(app, deps);
 */
export function searchRoutes(app: App, deps: HttpDeps): void {
  app.openAPIRegistry.registerPath(searchRoute);
  app.openAPIRegistry.registerPath(clustersRoute);
  app.openAPIRegistry.registerPath(suggestionsRoute);

  app.post('/search', async (c: Context<AppEnv>) => {
    const { value } = await readFormBody(c, SearchBody, { ...deps.form, maxUploadBytes: 0 });
    return c.json(await deps.search.search(c.get('caller'), value), 200);
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
