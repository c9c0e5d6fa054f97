import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv, App, HttpDeps } from '../env.js';
import { readFormBody } from '../middleware/form-body/index.js';
import { errors, SECURITY } from '../schemas/common.js';
import { formEnvelope, SearchBody } from '../schemas/submissions.js';
import { SearchResult } from '../schemas/search.js';



const searchRoute = createRoute({
  method: 'post', path: '/search', operationId: 'searchMedia', tags: ['search'], security: SECURITY, summary: 'Search one collection',
  description: 'Hybrid search: words (English stemming), word parts (trigrams, for compounds) and, with models installed, text and frame vectors, fused per episode. The query is plain text: FTS operators and quotes are taken as words (balanced double quotes keep a phrase).',
  request: { body: { required: true, content: formEnvelope(SearchBody) } },
  responses: {
    200: { description: 'Results (SPEC 2.7), best first', content: { 'application/json': { schema: z.object({ results: z.array(SearchResult) }) } } },
    ...errors(400, 401, 404, 413, 415, 422),
  },
});

/**
 * POST /search: hybrid search over the index of one collection (404 for a collection the key may not read).
 * @example
 * searchRoutes(app, deps);
 */
export function searchRoutes(app: App, deps: HttpDeps): void {
  app.openAPIRegistry.registerPath(searchRoute);

  app.post('/search', async (c: Context<AppEnv>) => {
    const { value } = await readFormBody(c, SearchBody, { ...deps.form, maxUploadBytes: 0 });
    return c.json(await deps.search.search(c.get('caller'), value), 200);
  });
}
