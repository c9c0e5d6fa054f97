/**
 * Indexed items as MCP resources, `vidx://collections/{collection_id}/items/{media_id}`, whose text is the
 * transcript with times. Listing walks the key's own collections (first page of items in each), so an
 * agent's resource picker is not flooded; any item the key may see can be read by its URI, and any other
 * item URI answers -32002 (resource not found).
 */
import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { VidxApi } from './api.js';
import { orNotFound, ResourceNotFound } from './not-found.js';
import { collection, itemParams, itemUri, mediaId } from './tools/fields.js';
import { readAnalysis, timedLine, transcriptOf } from './transcript.js';

const ITEMS_PER_COLLECTION = 100;
const MAX_LISTED = 500;

/** A template variable, decoded; '' for a malformed escape (`%E0`), which no id matches. */
function one(v: string | string[] | undefined): string {
  try {
    return decodeURIComponent((Array.isArray(v) ? v[0] : v) ?? '');
  } catch {
    return '';
  }
}

/**
 * The transcript of one item as the resource text: a header, then one `[m:ss–m:ss] text` line per segment.
 * @example
 * const text = await itemTranscriptText(api, 'trips', 'lake');
 */
export async function itemTranscriptText(api: VidxApi, collectionId: string, media: string): Promise<string> {
  const [item, analysis] = await Promise.all([api.GET('/collections/{collection_id}/items/{media_id}', { params: itemParams(collectionId, media) }), readAnalysis(api, collectionId, media)]);
  const lines = transcriptOf(analysis).map(timedLine);
  const head = `${item.title ?? media} (${collectionId}/${media}), transcript with times (m:ss from the start)`;
  return [head, '', ...(lines.length ? lines : ['(no speech transcript)'])].join('\n');
}

async function listItems(api: VidxApi) {
  const { collections } = await api.GET('/collections');
  const resources: Array<{ uri: string; name: string; title: string; description: string; mimeType: string }> = [];
  for (const c of collections) {
    if (resources.length >= MAX_LISTED) break;
    const { items } = await api.GET('/collections/{collection_id}/items', { params: { path: { collection_id: c.collection_id }, query: { limit: ITEMS_PER_COLLECTION } } });
    for (const it of items.slice(0, MAX_LISTED - resources.length)) {
      resources.push({
        uri: itemUri(c.collection_id, it.media_id),
        name: `${c.collection_id}/${it.media_id}`,
        title: it.title ?? it.media_id,
        description: `Transcript of "${it.title ?? it.media_id}" in collection ${c.name}`,
        mimeType: 'text/plain',
      });
    }
  }
  return { resources };
}

/**
 * Registers the item resource template on a server.
 * @example
 * registerItemResources(server, api);
 */
export function registerItemResources(server: McpServer, api: VidxApi): void {
  server.registerResource(
    'item-transcript',
    new ResourceTemplate('vidx://collections/{collection_id}/items/{media_id}', { list: () => listItems(api) }),
    { title: 'Indexed video transcript', description: 'The transcript with times of an indexed video', mimeType: 'text/plain' },
    async (uri, vars) => {
      const [collectionId, media] = [one(vars.collection_id), one(vars.media_id)];
      // An id no item can have is not found either, rather than the API's 422 about a path parameter.
      if (!collection.safeParse(collectionId).success || !mediaId.safeParse(media).success) throw new ResourceNotFound(uri.href, `no item ${collectionId}/${media}`);
      const text = await orNotFound(uri.href, () => itemTranscriptText(api, collectionId, media));
      return { contents: [{ uri: uri.href, mimeType: 'text/plain', text }] };
    },
  );
}
