import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv, App, HttpDeps } from '../env.js';
import { readFormBody } from '../middleware/form-body/index.js';
import { errors, SECURITY } from '../schemas/common.js';
import { formEnvelope, SearchBody } from '../schemas/jobs.js';

const Span = { start: z.number(), end: z.number() };

/** One result object of POST /search (SPEC 2.7); clusters reuse it. */
export const SearchResult = z
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
    media_type: z.enum(['video', 'audio', 'image']).openapi({ description: "vidx extra: the item's type" }),
    captured_at: z.string().nullable().openapi({ description: 'vidx extra: when the media was recorded (ISO 8601); null when unknown' }),
    people: z
      .array(z.object({ person_id: z.string(), name: z.string().nullable() }))
      .optional()
      .openapi({ description: 'vidx extra: the people seen in the episode (GET /collections/{id}/people); present only when the collection has faces on' }),
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
