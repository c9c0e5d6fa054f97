import { z } from 'zod';
import { taskOutput } from '../tasks.js';
import { defineTool } from '../tool.js';
import { collection, mediaId } from './fields.js';
import { queuedOrWaited, waitSeconds } from './submit.js';

/**
 * `reindex`: POST /collections/{collection_id}/reindex, to analyse items again after faces were turned on or
 * a model was pulled.
 * @example
 * await client.callTool({ name: 'reindex', arguments: { collection: 'family', wait_seconds: 60 } });
 */
export const reindex = defineTool({
  name: 'reindex',
  title: 'Re-index items of a collection',
  description:
    'Analyses items of a collection again from their sources, keeping their media_id, title, metadata and people names: use it after ' +
    'faces were turned on for the collection or a model was installed, so earlier videos get the new results. Without media_ids every item. ' +
    'Runs as one task with progress per item: the answer is its task_id (follow it with get_task), or, with wait_seconds, its result, which ' +
    'lists each item that failed (for example because its file is gone) with the reason.',
  input: {
    collection,
    media_ids: z.array(mediaId).min(1).max(10_000).optional().describe('The items to analyse again (default: all of them)'),
    wait_seconds: waitSeconds,
  },
  output: taskOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: async (args, ctx) => {
    const { task_id } = await ctx.api.POST('/collections/{collection_id}/reindex', {
      params: { path: { collection_id: args.collection } },
      body: args.media_ids ? { media_ids: args.media_ids } : {},
    });
    return queuedOrWaited(ctx, task_id, args.wait_seconds);
  },
});
