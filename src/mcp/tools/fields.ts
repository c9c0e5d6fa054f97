/**
 * Input fields several tools share, with the rules of the HTTP API (which checks them again) and the
 * descriptions an agent reads in the JSON schema.
 */
import { z } from 'zod';

const ID = /^[A-Za-z0-9_-]+$/;

/**
 * A collection id (the other fields here are used the same way).
 * @example
 * input: { collection, media_id: mediaId, max_chars: maxChars }
 */
export const collection = z.string().min(1).max(100).regex(ID).describe('Collection id, as list_collections shows it');

/** A media id inside a collection. */
export const mediaId = z.string().min(1).max(36).regex(ID).describe('Media id of the video inside the collection, as search results show it');

/** Read another owner's public collection. */
export const isPublic = z.boolean().optional().describe("true to read another owner's public collection (default: your own collections)");

/** How much text a tool may return, so an answer fits an agent's context window. */
export const maxChars = z
  .number()
  .int()
  .min(500)
  .max(100_000)
  .optional()
  .describe('Upper bound on the characters returned (default 8000); the answer says how to ask for the rest');

/** The default of {@link maxChars}. */
export const DEFAULT_MAX_CHARS = 8000;

/**
 * The MCP resource URI of an indexed item (its transcript with times).
 * @example
 * itemUri('trips', 'lake'); // 'vidx://collections/trips/items/lake'
 */
export function itemUri(collectionId: string, media: string): string {
  return `vidx://collections/${encodeURIComponent(collectionId)}/items/${encodeURIComponent(media)}`;
}

/**
 * The path parameters of an item, for the API's `/collections/{collection_id}/items/{media_id}…` paths.
 * @example
 * await api.GET('/collections/{collection_id}/items/{media_id}', { params: itemParams('trips', 'lake') });
 */
export function itemParams(collectionId: string, media: string) {
  return { path: { collection_id: collectionId, media_id: media } };
}
