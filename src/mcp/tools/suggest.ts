import { z } from 'zod';
import { LANGS } from '../../messages/index.js';
import { defineTool } from '../tool.js';
import { collection } from './fields.js';

/**
 * `suggest`: POST /collection_suggestions, topics and questions a collection can answer.
 * @example
 * await client.callTool({ name: 'suggest', arguments: { collection: 'demo', language: 'de' } });
 */
export const suggest = defineTool({
  name: 'suggest',
  title: 'Topics of a collection',
  description:
    'Suggests the topics a collection is about, and questions about them, each with the videos and moments where it comes up. ' +
    'Use it to get an overview of an unknown collection or to propose good search queries.',
  input: {
    collection,
    language: z.enum(LANGS).optional().describe('Language of the suggested questions: en (default) or de'),
    public: z.boolean().optional().describe("true when the collection is another owner's public collection"),
  },
  output: {
    collection: z.string(),
    suggestions: z.array(
      z.object({
        type: z.enum(['topic', 'question']),
        text: z.string(),
        media_ids: z.array(z.string()),
        moments: z.array(z.object({ media_id: z.string(), episode_id: z.number(), start_time: z.number() })).describe('At most five'),
      }),
    ),
  },
  annotations: { readOnlyHint: true },
  async run(args, { api }) {
    const suggestions = [];
    const stream = api.stream('/collection_suggestions', {
      collection: args.collection,
      search_language: args.language ?? 'en',
      search_public_collections: args.public ?? false,
    });
    for await (const { completion: c } of stream) suggestions.push({ type: c.type, text: c.text, media_ids: c.media_ids, moments: c.moments.slice(0, 5) });
    return { collection: args.collection, suggestions };
  },
});
