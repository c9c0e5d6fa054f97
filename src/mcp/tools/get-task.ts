import { z } from 'zod';
import { readTask, taskOutput, taskView, waitForTask } from '../tasks.js';
import { defineTool } from '../tool.js';
import { DEFAULT_MAX_CHARS, maxChars } from './fields.js';
import { waitSeconds } from './submit.js';

/**
 * `get_task`: the state of an index or analyze task, optionally waiting for it to end.
 * @example
 * await client.callTool({ name: 'get_task', arguments: { task_id: id, wait_seconds: 30 } });
 */
export const getTask = defineTool({
  name: 'get_task',
  title: 'Task state',
  description:
    'Returns the state of an indexing or analysis task started by index_video or analyze_video: status (queued, running, completed, failed), progress, ' +
    'and when completed its result (what was indexed, or the analysis: summary, episodes, transcript); when failed, the reason. ' +
    'Pass wait_seconds to wait for the end instead of polling quickly.',
  input: {
    task_id: z.string().min(1).max(100).describe('The task_id that index_video or analyze_video returned'),
    wait_seconds: waitSeconds,
    max_chars: maxChars,
  },
  output: taskOutput,
  annotations: { readOnlyHint: true },
  async run(args, { api, extra, stopping }) {
    const task = args.wait_seconds ? await waitForTask(api, args.task_id, args.wait_seconds, extra, stopping) : await readTask(api, args.task_id);
    return taskView(task, args.max_chars ?? DEFAULT_MAX_CHARS);
  },
});
