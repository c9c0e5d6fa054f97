import { z } from 'zod';
import { LANGS } from '../../messages/index.js';
import { taskOutput } from '../tasks.js';
import { defineTool } from '../tool.js';
import { collection } from './fields.js';
import { submitTask, videoFields, waitSeconds } from './submit.js';

/**
 * `index_video`: POST /index, so search finds the video.
 * @example
 * await client.callTool({ name: 'index_video', arguments: { path: '/home/me/Videos/talk.mp4', collection: 'talks', wait_seconds: 50 } });
 */
export const indexVideo = defineTool({
  name: 'index_video',
  title: 'Index a video into a collection',
  description:
    'Adds a video (a file path on the vidx machine, or a URL) to a collection so search can find what is said and shown in it. ' +
    'Indexing runs as a task that takes from seconds to minutes: by default the answer is the task_id at once (follow it with get_task); ' +
    'wait_seconds waits for the result. A media_id that already exists is skipped unless reindex is true.',
  input: {
    ...videoFields,
    collection,
    language: z.enum(LANGS).optional().describe('Spoken language: en (default) or de'),
    reindex: z.boolean().optional().describe('Replace the video when its media_id already exists (default false)'),
    wait_seconds: waitSeconds,
  },
  output: taskOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
  run: (args, ctx) =>
    submitTask(ctx, '/index', args, { collection: args.collection, index_language: args.language ?? 'en', reindex_if_exists: args.reindex ?? false }, args.wait_seconds),
});
