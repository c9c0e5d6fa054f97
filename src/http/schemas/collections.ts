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
    captured_at: z.string().nullable().openapi({ description: 'vidx extra: when the media was recorded (ISO 8601), from captured_at_source; null for URLs and uploads' }),
    captured_at_source: z.enum(['container', 'exif', 'mtime']).nullable().openapi({ description: "vidx extra: container = the file's creation_time tag, exif = EXIF DateTimeOriginal, mtime = the file's modification time" }),
    latitude: z.number().nullable().openapi({ description: 'vidx extra: GPS latitude when the file has one (EXIF GPS or the ISO 6709 location tag)' }),
    longitude: z.number().nullable().openapi({ description: 'vidx extra: GPS longitude when the file has one' }),
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
