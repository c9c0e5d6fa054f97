import { z } from 'zod';
import { defineTool } from '../tool.js';

/**
 * `list_collections`: GET /collections, the ids the other tools take.
 * @example
 * await client.callTool({ name: 'list_collections', arguments: {} });
 */
export const listCollections = defineTool({
  name: 'list_collections',
  title: 'List video collections',
  description:
    'Lists the video collections this key can search (id, name, description, public). Call it first when you do not know which collection holds the videos; every other tool takes a collection id.',
  input: { public: z.boolean().optional().describe('true lists every public collection instead of your own') },
  output: {
    collections: z.array(z.object({ collection_id: z.string(), name: z.string(), description: z.string().nullable(), is_public: z.boolean() })),
  },
  annotations: { readOnlyHint: true },
  async run(args, { api }) {
    const { collections } = await api.GET('/collections', { params: { query: { public: args.public || undefined } } });
    return {
      collections: collections.map((c) => ({ collection_id: c.collection_id, name: c.name, description: c.description, is_public: c.is_public })),
    };
  },
});
