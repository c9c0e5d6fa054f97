import { z } from '@hono/zod-openapi';
import { CollectionId, MediaId } from './common.js';
import { PICTURE_URL } from './collections.js';

/** POST …/shares: how long the link lives and where it starts. */
export const ShareCreate = z
  .object({
    days: z.union([z.literal(1), z.literal(7)]).openapi({ description: 'The link works for 1 or 7 days', example: 7 }),
    start_time: z.number().min(0).optional().openapi({ description: 'Seconds: the moment the link plays from (default 0)' }),
  })
  .strict()
  .openapi('ShareCreate');

/** A share link as its owner sees it. */
export const Share = z
  .object({
    share_id: z.string(),
    url: z.string().openapi({ description: 'The link to give: opens the page on this moment, no key needed' }),
    media_id: z.string(),
    start_time: z.number(),
    created_at: z.string(),
    expires_at: z.string(),
  })
  .openapi('Share');

/** What a share link shows (GET /shared/{token}, no key). */
export const SharedMoment = z
  .object({
    title: z.string().nullable(),
    type: z.enum(['video', 'audio', 'image']),
    duration: z.number().nullable(),
    start_time: z.number(),
    expires_at: z.string(),
    src: z.string().nullable().openapi({ description: 'Signed link (or the source URL); stops when the share is revoked' }),
    picture_url: z.string().nullable().openapi({ description: `${PICTURE_URL} Stops when the share is revoked.` }),
    thumbnail_url: z.string().nullable(),
    chapters: z.array(
      z.object({
        start: z.number(),
        end: z.number(),
        summary: z.string(),
        title: z.string().openapi({ description: 'The summary, else what the chapter is ("Voice memo, part 1", "Photo", the title), those words in the caller\'s language (Accept-Language naming en or de first), else the item\'s' }),
      }),
    ),
    transcript: z.array(z.object({ start: z.number(), end: z.number(), text: z.string(), speaker: z.number().int().nullable().openapi({ description: 'Who says it: an anonymous speaker number within the item; null where unknown' }) })),
  })
  .openapi('SharedMoment');

export const ShareItemParams = z.object({
  collection_id: CollectionId.openapi({ param: { name: 'collection_id', in: 'path' } }),
  media_id: MediaId.openapi({ param: { name: 'media_id', in: 'path' } }),
});

export const ShareParams = ShareItemParams.extend({ share_id: z.string().min(1).max(100).openapi({ param: { name: 'share_id', in: 'path' } }) });

export const SharedParams = z.object({ token: z.string().min(10).max(100).openapi({ param: { name: 'token', in: 'path' } }) });
