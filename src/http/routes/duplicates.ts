import { createRoute, z } from '@hono/zod-openapi';
import type { App, HttpDeps } from '../env.js';
import { errors, jsonResponse as json, SECURITY } from '../schemas/common.js';
import { CollectionParams } from '../schemas/collections.js';
import { DEFAULT_DUPLICATE_THRESHOLD } from '../../services/duplicates/service.js';
import { KEEP_REASONS } from '../../services/duplicates/keep.js';

const Member = z
  .object({
    media_id: z.string(),
    title: z.string().nullable(),
    duration: z.number().nullable(),
    width: z.number().int().nullable().openapi({ description: 'As shown (rotation applied); null for items indexed before vidx kept it' }),
    height: z.number().int().nullable(),
    size: z.number().int().nullable().openapi({ description: 'Bytes of the file' }),
    overlap: z.number().openapi({ description: 'The share of this item (0..1) the other copies show: 1 for a full copy, less for the longer side of a trimmed one' }),
    covered_by_keep: z.boolean().openapi({
      description: 'True when the kept copy holds everything this one has: it shows all of it, has at least its pixels and (photos) states at least its date and place. Only such a copy is safe to delete; false for the kept copy itself',
    }),
    uploaded: z.boolean().openapi({ description: 'True when the file was uploaded: vidx holds its only stored copy, and deleting the item deletes it' }),
  })
  .openapi('DuplicateItem');

const Group = z
  .object({
    items: z.array(Member).openapi({ description: 'The copies, best first' }),
    similarity: z.number().openapi({ description: 'How alike the matching frames are, 0..1 (the mean over the group’s pairs)' }),
    keep: z.string().openapi({
      description:
        'The media_id of the copy to keep. Videos: the longest (a trimmed part is never kept over its whole), then the most pixels, then the highest bitrate, then the original (the earlier file date, else the one indexed first). Photos: the one that states when and where it was taken (EXIF date, GPS), then the most pixels, then the camera’s format (HEIC, raw, JPEG) over an export, then the original',
    }),
    keep_reason: z.enum(KEEP_REASONS).openapi({
      description:
        'Why `keep` was chosen over the next-best copy: `longest` (the others are parts of it), `higher_resolution`, `higher_bitrate`, `capture_metadata` (only it states its date or place), `camera_format`, `original` (nothing else told them apart)',
    }),
    keep_message: z.string().openapi({ description: 'The same in a sentence (English)' }),
  })
  .openapi('DuplicateGroup');

const list = createRoute({
  method: 'get', path: '/collections/{collection_id}/duplicates', operationId: 'listDuplicates', tags: ['items'], security: SECURITY,
  summary: 'Copies inside a collection (vidx extra): re-encoded, rescaled and trimmed videos, near-identical photos',
  description:
    'Groups of items that are copies of one another, found by perceptual fingerprints (no model needed): a video and a copy that shows at least 60 % of the shorter one frame by frame in order, or two photos whose fingerprints nearly match. Videos that only look alike (slides of one template with other words) are kept apart. Kept up to date as items are indexed and deleted.',
  request: {
    params: CollectionParams,
    query: z.object({
      threshold: z.coerce
        .number()
        .min(0)
        .max(1)
        .optional()
        .openapi({ type: 'number', default: DEFAULT_DUPLICATE_THRESHOLD, description: `Least similarity of a pair to be grouped (0..1, default ${DEFAULT_DUPLICATE_THRESHOLD}); raise it for fewer, closer copies` }),
    }),
  },
  responses: { 200: json(z.object({ groups: z.array(Group) }), 'Groups, most alike first'), ...errors(401, 404, 422) },
});

/**
 * GET /collections/{collection_id}/duplicates.
 * @example
 * duplicateRoutes(app, deps);
 */
export function duplicateRoutes(app: App, deps: HttpDeps): void {
  app.openapi(list, (c) => c.json(deps.duplicates.groups(c.get('caller'), c.req.valid('param').collection_id, c.req.valid('query').threshold), 200));
}
