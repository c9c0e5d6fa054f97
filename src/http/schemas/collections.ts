import { z } from '@hono/zod-openapi';
import { CollectionId, MediaId, queryBool } from './common.js';

export const Collection = z
  .object({
    collection_id: CollectionId,
    name: z.string().min(1).max(100),
    description: z.string().nullable(),
    is_public: z.boolean(),
    thumbnails: z.array(z.string()).nullable().optional().openapi({ description: 'Signed thumbnail URLs; only with return_thumbnails=true' }),
  })
  .openapi('Collection');

export const CollectionCreate = z
  .object({
    collection_id: CollectionId,
    name: z.string().min(1).max(100),
    description: z.string().nullable().optional(),
    is_public: z.boolean().optional().default(false),
  })
  .strict()
  .openapi('CollectionCreate');

export const CollectionUpdate = z
  .object({
    name: z.string().min(1).max(100).nullable().optional(),
    description: z.string().nullable().optional(),
    is_public: z.boolean().nullable().optional(),
  })
  .strict()
  .openapi('CollectionUpdate');

export const CollectionParams = z.object({ collection_id: CollectionId.openapi({ param: { name: 'collection_id', in: 'path' } }) });

export const CollectionQuery = z.object({ public: queryBool(), return_thumbnails: queryBool() });

export const MediaItem = z
  .object({
    type: z.enum(['video', 'audio', 'image']),
    media_id: MediaId,
    thumbnail_url: z.string().nullable(),
    src: z.string().nullable().openapi({ description: 'The source URL, else a signed /files/ link to the stored media file (as in search results), else null' }),
    additional_metadata: z.record(z.string(), z.unknown()).nullable(),
    title: z.string().nullable(),
    duration: z.number().nullable(),
  })
  .openapi('MediaItem');

export const ItemParams = z.object({
  collection_id: CollectionId.openapi({ param: { name: 'collection_id', in: 'path' } }),
  media_id: MediaId.openapi({ param: { name: 'media_id', in: 'path' } }),
});

export const ItemListQuery = z.object({
  is_public: queryBool(),
  limit: z.coerce.number().int().min(1).max(100).optional().default(10).openapi({ type: 'integer', default: 10, minimum: 1, maximum: 100 }),
  offset: z.uuid().nullable().optional().openapi({ description: 'The offset returned by the previous page' }),
});

export const ItemQuery = z.object({ is_public: queryBool() });
