import { z } from '@hono/zod-openapi';
import { CollectionId, MediaId, Metadata, queryBool } from './common.js';
import { nearFields, Place } from './places.js';
import { zodText } from '../zod-messages.js';

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

/** PATCH …/items/{media_id}: the owner's own title or metadata, kept through rescans and re-index. */
export const ItemPatch = z
  .object({
    title: z.string().min(1).max(1000).nullable().optional().openapi({ description: 'The new title; null goes back to none' }),
    additional_metadata: Metadata.nullable().optional(),
  })
  .strict()
  .refine((v) => v.title !== undefined || v.additional_metadata !== undefined, zodText('title_or_metadata'))
  .openapi('ItemPatch');

/** POST /collections/{collection_id}/reindex: which items, or all of them. */
export const ReindexBody = z
  .object({
    media_ids: z.array(MediaId).min(1).max(10_000).nullable().optional().openapi({ description: 'The items to analyse again; left out or null: every item of the collection' }),
  })
  .strict()
  .openapi('ReindexRequest');

export const CollectionQuery = z.object({ public: queryBool(), return_thumbnails: queryBool() });

/** What `picture_url` is, for items and share links alike. */
export const PICTURE_URL =
  'vidx extra, for a photo (type image): a link to the picture as every browser shows it: the kept file itself when it is JPEG, PNG, WebP, GIF or AVIF; for HEIC/HEIF, TIFF and other formats a JPEG made from it (full size, upright) on the first request and kept beside it; the source URL for a URL source. null for video and audio, and when nothing is kept. `src` stays the original file as it was indexed.';

export const MediaItem = z
  .object({
    type: z.enum(['video', 'audio', 'image']),
    media_id: MediaId,
    thumbnail_url: z.string().nullable(),
    src: z.string().nullable().openapi({ description: 'The source URL, else a signed /files/ link to the stored media file (as in search results), else null' }),
    picture_url: z.string().nullable().openapi({ description: PICTURE_URL }),
    additional_metadata: z.record(z.string(), z.unknown()).nullable(),
    title: z.string().nullable(),
    duration: z.number().nullable(),
    captured_at: z.string().nullable().openapi({ description: 'vidx extra: the date of the media (ISO 8601); what kind of date it is says captured_at_source' }),
    captured_at_source: z.enum(['metadata', 'filename', 'file']).nullable().openapi({
      description: "vidx extra: `metadata` = the file states when it was recorded (a container's creation_time, EXIF DateTimeOriginal); `filename` = the file's name states it (`IMG_20190714_093012`, `VID-20190714-WA0003`, `Screenshot 2023-10-05 at 14.32.11`, or a real day anywhere in it: `Sprachmemo 2024-03-02 …`), its clock time read in the server's time zone; `file` = only a file-system date is known (a file's modification time, or File.lastModified the web page sent for an upload), which is not a recording date; null = no date",
    }),
    latitude: z.number().nullable().openapi({ description: 'vidx extra: GPS latitude when the file has one (EXIF GPS or the ISO 6709 location tag)' }),
    longitude: z.number().nullable().openapi({ description: 'vidx extra: GPS longitude when the file has one' }),
    place: Place.nullable().openapi({ description: 'vidx extra: where the item was recorded, named offline from its GPS (city, district, region, country); null without GPS or far from any town' }),
    size: z.number().int().nullable().openapi({ description: 'vidx extra: bytes of the media file when it was indexed; null when unknown' }),
    folder_path: z.string().nullable().optional().openapi({ description: "vidx extra, shown to the collection's owner and admins only: where a folder item lies inside its folder (`trips/beach.mp4`)" }),
  })
  .openapi('MediaItem');

export const ItemParams = z.object({
  collection_id: CollectionId.openapi({ param: { name: 'collection_id', in: 'path' } }),
  media_id: MediaId.openapi({ param: { name: 'media_id', in: 'path' } }),
});

export const ItemListQuery = z
  .object({
    is_public: queryBool(),
    limit: z.coerce.number().int().min(1).max(100).optional().default(10).openapi({ type: 'integer', default: 10, minimum: 1, maximum: 100 }),
    offset: z
      .string()
      .max(40)
      .nullable()
      .optional()
      .openapi({ description: 'The offset returned by the previous page: a UUID in the default order, a position (digits) in the other sort orders' }),
    sort: z.enum(['added', 'name', 'captured', 'duration']).optional().default('added').openapi({ description: 'vidx extra: the order (added = when it was indexed, the SPEC order)' }),
    order: z.enum(['asc', 'desc']).optional().openapi({ description: 'vidx extra: default asc for added and name, desc (newest, longest first) for captured and duration' }),
    type: z.enum(['video', 'audio', 'image']).optional().openapi({ description: 'vidx extra: only items of this type' }),
    captured_after: z.iso.datetime({ offset: true }).optional().openapi({ description: 'vidx extra: only items recorded at or after this time (ISO 8601; a month of GET …/timeline gives its `from`)' }),
    captured_before: z.iso.datetime({ offset: true }).optional().openapi({ description: 'vidx extra: only items recorded at or before this time (a month of GET …/timeline gives its `to`)' }),
    ...nearFields,
  })
  .superRefine((q, ctx) => {
    if (q.offset == null) return;
    const plain = q.sort === 'added' && (q.order ?? 'asc') === 'asc' && !q.type && q.near === undefined && !q.captured_after && !q.captured_before;
    const ok = plain ? z.uuid().safeParse(q.offset).success : /^\d{1,9}$/.test(q.offset);
    if (!ok) ctx.addIssue({ code: 'custom', path: ['offset'], message: plain ? 'must be a UUID (the offset a previous page returned)' : 'must be the position a previous page returned' });
  });

export const ItemQuery = z.object({ is_public: queryBool() });

/** A language tag as subtitle files and containers write them: `de`, `de-DE`, `pt_BR`, `ger`, `und`. */
const LANGUAGE_TAG = /^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{1,8}){0,3}$/;

/**
 * GET …/items/{media_id}/analysis: the item's visibility and, a vidx extra, which subtitle language to show.
 * @example
 * request: { params: ItemParams, query: AnalysisQuery }
 */
export const AnalysisQuery = ItemQuery.extend({
  language: z
    .string()
    .regex(LANGUAGE_TAG, zodText('language_tag', { examples: 'de, de-DE', last: 'ger' }))
    .optional()
    .openapi({
      description:
        "vidx extra: the episodes' `audio` holds this subtitle language's lines instead of the transcript's (any form: de, de-DE, deu, ger; `und` for a track of unknown language). One of `subtitle_languages`; another is 404 naming the ones the item has. The summaries are then told from that track's lines (see summary_language).",
      example: 'de',
    }),
});
