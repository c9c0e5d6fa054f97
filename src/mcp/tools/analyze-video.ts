import { taskOutput } from '../tasks.js';
import { defineTool } from '../tool.js';
import { submitTask, videoFields, waitSeconds } from './submit.js';

/**
 * `analyze_video`: POST /analyze, a summary and transcript without indexing.
 * @example
 * await client.callTool({ name: 'analyze_video', arguments: { url: 'https://example.org/clip.mp4' } });
 */
export const analyzeVideo = defineTool({
  name: 'analyze_video',
  title: 'Analyze a video without indexing it',
  description:
    'Makes a summary, episodes and a timed transcript of one video (a file path on the vidx machine, or a URL) without adding it to a collection. ' +
    'Use it to summarise a single video; use index_video instead when the video should be searchable later. ' +
    'Runs as a task: by default the answer is the task_id (get_task shows the result when completed); wait_seconds waits for it.',
  input: { ...videoFields, wait_seconds: waitSeconds },
  output: taskOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
  run: (args, ctx) => submitTask(ctx, '/analyze', args, {}, args.wait_seconds),
});
