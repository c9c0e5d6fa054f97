import { msg } from '../../messages/index.js';
import { createRoute } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv, App, HttpDeps } from '../env.js';
import { readFile } from 'node:fs/promises';
import { readFormBody, removeUploads } from '../middleware/form-body/index.js';
import { Problem } from '../../services/errors.js';
import { errors, SECURITY } from '../schemas/common.js';
import { formEnvelope, SearchBody } from '../schemas/submissions.js';
import { SearchResponse } from '../schemas/search.js';
import { answerLanguage } from '../german.js';
import { MAX_QUERY_IMAGE_BYTES } from '../../services/search/picture-file.js';

/** The one file part a search may bring: the one `image` names. */
function namedImage(body: unknown): string[] {
  const image = (body as { image?: unknown } | null)?.image;
  return typeof image === 'string' ? [image] : [];
}

const searchRoute = createRoute({
  method: 'post', path: '/search', operationId: 'searchMedia', tags: ['search'], security: SECURITY, summary: 'Search one collection',
  description:
    'Hybrid search: words (English stemming), word parts (trigrams, for compounds) and, with models installed, text and frame vectors, fused per episode. The query is plain text: FTS operators and quotes are taken as words (balanced double quotes keep a phrase). By picture (vidx extra): `image` names a file part of a multipart request (or `image_path` a picture file inside the media roots, read by the server), `like` a moment of the collection; both find look-alike frames by perceptual fingerprints (no model needed) and, with the image-text model, by its vectors. ' +
    'Dates and places in the words (vidx extra): a date in English or German ("2019", "May 2024", "last summer", "Weihnachten 2022") and a place the collection\'s items were recorded at ("Lisbon", "Wien") become filters on captured_at and place, and `understood` in the answer says what was read ({place, from, to, words}; absent when nothing was). Relative dates count from the server\'s clock and time zone. With no words left, what the filters keep is listed; moments holding the words as typed outside the filters follow the understood ones. `understand: false` searches the words as typed.',
  request: {
    body: {
      required: true,
      content: formEnvelope(SearchBody, { uploads: true, fileDescription: 'A query picture; `image` in the body names it by its file name (or this part name). The body field must come before it.' }),
    },
  },
  responses: {
    200: { description: 'Results (SPEC 2.7), best first', content: { 'application/json': { schema: SearchResponse } } },
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
    const { value, uploads } = await readFormBody(c, SearchBody, { ...deps.form, maxUploadBytes: MAX_QUERY_IMAGE_BYTES }, namedImage);
    try {
      const upload = value.image === undefined ? undefined : (uploads.find((u) => u.filename === value.image) ?? uploads.find((u) => u.field === value.image));
      if (value.image !== undefined && !upload) {
        throw new Problem('invalid', msg('image_part_missing', { name: value.image }), [{ field: 'image', message: msg('names_no_file_part') }]);
      }
      const { image: _named, image_path: path, ...request } = value;
      const image = upload ? new Uint8Array(await readFile(upload.path)) : path !== undefined ? await deps.pictureFile(path) : undefined;
      const field = path !== undefined ? 'image_path' : 'image';
      const language = request.search_language ?? answerLanguage(c);
      // The answer comes as JSON text: written on the search thread that found it.
      const answer = await deps.search.searchText(c.get('caller'), { ...request, search_language: language, ...(image ? { image, image_field: field } : {}) });
      return c.body(answer, 200, { 'content-type': 'application/json' });
    } finally {
      removeUploads(uploads);
    }
  });
}
