import { z } from '@hono/zod-openapi';
import { CollectionId, Language, MediaId, Metadata } from './common.js';
import { nearFields } from './places.js';
import { msg } from '../../messages/index.js';
import { customIssue, zodText } from '../zod-messages.js';

/** The video object of /index and /analyze (SPEC 2.2): exactly one of path, url, content. */
export const VideoInput = z
  .object({
    path: z.string().min(1).max(4096).nullable().optional().openapi({ description: 'A file inside VIDX_MEDIA_ROOTS' }),
    url: z
      .string()
      .min(1)
      .max(2083)
      .refine((s) => /^https?:\/\//i.test(s) && URL.canParse(s), zodText('absolute_http_url'))
      .nullable()
      .optional()
      .openapi({ description: 'A video file or a video-sharing page' }),
    content: z.string().min(1).max(255).nullable().optional().openapi({ description: 'Name of a file part uploaded in the same multipart request' }),
    media_id: MediaId.nullable().optional().openapi({ description: 'Generated when omitted' }),
    title: z.string().max(1000).nullable().optional(),
    additional_metadata: Metadata.nullable().optional(),
    file_modified_at: z.iso
      .datetime({ offset: true })
      .nullable()
      .optional()
      .openapi({ description: "vidx extra: when the file was last changed on the caller's side (the web page sends File.lastModified). Used as the item's date, with captured_at_source `file`, only when neither the media nor its file name states a recording date" }),
  })
  .strict()
  .superRefine((v, ctx) => {
    const given = (['path', 'url', 'content'] as const).filter((k) => v[k] !== null && v[k] !== undefined);
    if (given.length !== 1) {
      // Too many sources names them, in English only: the names are the API's.
      if (given.length) ctx.addIssue({ code: 'custom', message: `exactly one of path, url or content is allowed, got ${given.join(', ')}`, path: [] });
      else ctx.addIssue(customIssue(msg('one_video_source'), []));
    }
  })
  .openapi('VideoInput');

export const IndexBody = z
  .object({
    video: VideoInput,
    collection: CollectionId,
    index_language: Language.optional().default('en'),
    reindex_if_exists: z.boolean().optional().default(false),
  })
  .strict()
  .openapi('IndexRequest');

export const AnalyzeBody = z.object({ video: VideoInput }).strict().openapi('AnalyzeRequest');

export const SearchBody = z
  .object({
    query: z.string().trim().min(1).max(1000).optional().openapi({ description: 'Words to find. At least one of query, image, image_path and like is required; given together, their lists are fused' }),
    image: z
      .string()
      .min(1)
      .max(255)
      .optional()
      .openapi({ description: 'vidx extra: the name of a file part of this multipart request (its file name or part name) holding a picture: moments that look like it (JPEG, PNG, WebP, AVIF, HEIF, TIFF, GIF; at most 32 MiB)' }),
    image_path: z
      .string()
      .min(1)
      .max(4096)
      .optional()
      .openapi({
        description:
          "vidx extra: a picture file on the server's machine, read by the server instead of an uploaded `image` (for agents and scripts beside vidx, such as the MCP search tool). The same rule as `video.path` of /index: inside VIDX_MEDIA_ROOTS, never vidx's own data folder; a path it may not read is a 422 naming image_path",
      }),
    like: z
      .object({
        media_id: MediaId,
        start_time: z.number().min(0).openapi({ description: 'Seconds into the media' }),
      })
      .strict()
      .optional()
      .openapi({ description: 'vidx extra: a moment of this collection: moments like it (never the moment itself)' }),
    collection: CollectionId,
    limit: z.number().int().min(1).max(100).optional().default(10).openapi({ description: 'vidx extra: results wanted (default 10)' }),
    media_id: MediaId.optional().openapi({ description: 'vidx extra: search one media item only' }),
    person_id: z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/, zodText('must_match', { pattern: '^[A-Za-z0-9_-]+$' })).optional().openapi({ description: 'vidx extra: only moments where this person (GET /collections/{id}/people) is seen' }),
    speaker: z.string().trim().min(1).max(200).optional().openapi({ description: "vidx extra: only moments where this person speaks: a person_id or a person's name (GET /collections/{id}/people). Needs voices on for the collection (PUT …/voices); an unknown person is a 404" }),
    threshold: z.number().min(0).max(1).optional().default(0).openapi({ description: 'vidx extra: drop results scoring below this' }),
    media_type: z.enum(['video', 'audio', 'image']).optional().openapi({ description: 'vidx extra: only items of this type' }),
    captured_after: z.iso.datetime({ offset: true }).optional().openapi({ description: 'vidx extra: only items captured at or after this time (ISO 8601); items without a capture time are left out' }),
    captured_before: z.iso.datetime({ offset: true }).optional().openapi({ description: 'vidx extra: only items captured at or before this time (ISO 8601)' }),
    folder_id: z.string().min(1).max(100).optional().openapi({ description: 'vidx extra: only items a scan of this folder brought in' }),
    ...nearFields,
    search_language: Language.optional().openapi({ description: 'vidx extra: the language of the answer\'s notices; without it, Accept-Language decides (German when it prefers de), else English' }),
    correct_typos: z
      .boolean()
      .optional()
      .openapi({ description: "vidx extra: false searches the query's words as given, never as the collection's nearest words (what \"Search for … instead\" sends); default true" }),
    understand: z
      .boolean()
      .optional()
      .openapi({ description: 'vidx extra: false takes a date or place in the query as words, never as filters (what removing a chip on the page sends; see `understood` in the answer); default true' }),
  })
  .strict()
  .refine((b) => b.query !== undefined || b.image !== undefined || b.image_path !== undefined || b.like !== undefined || b.speaker !== undefined, { path: ['query'], message: 'give query, image, like or speaker (at least one; image_path may stand for image)' })
  .refine((b) => b.image === undefined || b.image_path === undefined, { path: ['image_path'], message: 'give image or image_path, not both' })
  .openapi('SearchRequest');

export const SearchClustersBody = z
  .object({
    query: z.string().trim().min(1).max(1000),
    collection: CollectionId,
    search_public_collections: z.boolean().optional().default(false),
    search_language: Language.optional().default('en'),
  })
  .strict()
  .openapi('SearchClustersRequest');

export const SuggestionsBody = z
  .object({
    collection: CollectionId,
    search_public_collections: z.boolean().optional().default(false),
    search_language: Language.optional().default('en'),
  })
  .strict()
  .openapi('CollectionSuggestionsRequest');

/**
 * The SPEC's form convention as the OpenAPI document shows it: one field `body` holding the JSON of `inner`,
 * url-encoded or multipart; vidx also takes the same object as plain JSON. Only endpoints that take a file
 * (`uploads: true`: /index, /analyze) show a file part; the others refuse one (422).
 * @example
 * request: { body: { required: true, content: formEnvelope(IndexBody, { uploads: true }) } }
 */
export function formEnvelope(inner: z.ZodType, opts: { uploads?: boolean; fileDescription?: string } = {}) {
  const form = z.object({ body: z.string().openapi({ description: 'JSON text of the request object (see the application/json schema)' }) });
  const multipart = opts.uploads
    ? form.extend({
        file: z.string().optional().openapi({
          format: 'binary',
          description:
            opts.fileDescription ?? 'The media file; video.content names it by its file name (or this part name). The body field must come before it; only the named part is taken.',
        }),
      })
    : form;
  return {
    'application/json': { schema: inner },
    'application/x-www-form-urlencoded': { schema: form },
    'multipart/form-data': { schema: multipart },
  };
}
