import { z } from 'zod';
import { defineTool } from '../tool.js';
import { collection, itemUri } from './fields.js';

/** Groups answered at most, so a collection full of copies still fits an agent's context. */
const DEFAULT_GROUPS = 50;

/**
 * `duplicates`: GET /collections/{collection_id}/duplicates, the groups of copies in a collection with the
 * copy to keep.
 * @example
 * await client.callTool({ name: 'duplicates', arguments: { collection: 'family', threshold: 0.9 } });
 */
export const duplicates = defineTool({
  name: 'duplicates',
  title: 'Duplicates in a collection',
  description:
    'Finds copies inside a collection: re-encoded, rescaled and trimmed copies of a video (at least 60 % of the shorter one, in order, in the same colours, ' +
    'with the same words on screen and the same sound where both have them) and near-identical photos, found by perceptual fingerprints (no model needed). ' +
    'Each group lists its items best first (media_id, title, duration, width, height, size in bytes, overlap: the share of the item the others show; ' +
    'covered_by_keep: the kept copy holds all of this one, so deleting it loses nothing; uploaded: vidx holds the only stored copy of it) with the media_id to keep ' +
    '(videos: the longest, then most pixels, then bitrate, then the original; photos: the one with its date and place, then most pixels, then the camera format) and why (keep_reason, keep_message). ' +
    'Use it for "which of these copies do I keep"; it deletes nothing. Never suggest deleting an item whose covered_by_keep is false.',
  input: {
    collection,
    threshold: z.number().min(0).max(1).optional().describe('Least similarity of two copies, 0..1 (default 0.8); higher for fewer, closer copies'),
    limit: z.number().int().min(1).max(500).optional().describe(`Groups answered at most (default ${DEFAULT_GROUPS}), most alike first`),
  },
  output: {
    collection: z.string(),
    groups: z.array(
      z.object({
        similarity: z.number(),
        keep: z.string().describe('The media_id of the copy to keep'),
        keep_reason: z.string().describe('Why: longest, higher_resolution, higher_bitrate, original (videos); capture_metadata, higher_resolution, camera_format, original (photos)'),
        keep_message: z.string(),
        items: z.array(
          z.object({
            media_id: z.string(),
            title: z.string().nullable(),
            duration: z.number().nullable(),
            width: z.number().nullable(),
            height: z.number().nullable(),
            size: z.number().nullable().describe('Bytes'),
            overlap: z.number().describe('The share of this item the others show, 0..1'),
            covered_by_keep: z.boolean().describe('The kept copy holds everything this one has: only then is deleting it safe'),
            uploaded: z.boolean().describe('Uploaded: vidx holds the only stored copy, and deleting the item deletes it'),
            resource: z.string(),
          }),
        ),
      }),
    ),
    more: z.number().describe('Groups left out by limit'),
    note: z.string().optional(),
  },
  annotations: { readOnlyHint: true },
  async run(args, { api }) {
    const { groups } = await api.GET('/collections/{collection_id}/duplicates', {
      params: { path: { collection_id: args.collection }, query: args.threshold === undefined ? {} : { threshold: args.threshold } },
    });
    const limit = args.limit ?? DEFAULT_GROUPS;
    return {
      collection: args.collection,
      groups: groups.slice(0, limit).map((g) => ({
        similarity: Math.round(g.similarity * 1000) / 1000,
        keep: g.keep,
        keep_reason: g.keep_reason,
        keep_message: g.keep_message,
        // The fields the output shape names, so the answer stays what the tool declares.
        items: g.items.map(({ media_id, title, duration, width, height, size, overlap, covered_by_keep, uploaded }) => ({
          media_id, title, duration, width, height, size,
          overlap: Math.round(overlap * 1000) / 1000,
          covered_by_keep, uploaded,
          resource: itemUri(args.collection, media_id),
        })),
      })),
      more: Math.max(0, groups.length - limit),
      ...(groups.length ? {} : { note: 'No copies found at this threshold.' }),
    };
  },
});
