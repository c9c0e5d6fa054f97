import { z } from 'zod';
import { taskOutput, taskView, waitForTask } from '../tasks.js';
import { defineTool, toolError } from '../tool.js';
import { collection, DEFAULT_MAX_CHARS } from './fields.js';
import { waitSeconds } from './submit.js';

/**
 * `add_folder`: POST /collections/{collection_id}/folders, which binds a folder and queues its first scan.
 * @example
 * await client.callTool({ name: 'add_folder', arguments: { collection: 'home', path: '/home/me/Videos', wait_seconds: 50 } });
 */
export const addFolder = defineTool({
  name: 'add_folder',
  title: 'Add a folder of videos, photos and voice memos to a collection',
  description:
    'Binds a folder on the vidx machine (inside its VIDX_MEDIA_ROOTS) to a collection and scans it: every video, audio file and photo in it ' +
    '(and its subfolders unless recursive is false) becomes searchable; later scans pick up new, changed, moved and deleted files, and ' +
    'watch keeps following the folder. The scan is a task: by default the answer is the folder and its scan task_id at once (follow it with ' +
    'get_task); wait_seconds waits for the scan result (files found, added, changed, moved, removed, failed).',
  input: {
    collection,
    path: z.string().min(1).max(4096).describe("Absolute path of a folder on the vidx server's machine, inside VIDX_MEDIA_ROOTS"),
    recursive: z.boolean().optional().describe('Include subfolders (default true)'),
    exclude: z.array(z.string().min(1).max(500)).max(50).optional().describe('Glob patterns of files or folders to leave out, e.g. "**/Trash/**"'),
    watch: z.boolean().optional().describe('Follow changes to the folder from now on (default true)'),
    wait_seconds: waitSeconds,
  },
  output: {
    // The folder as POST /collections/{collection_id}/folders answers it; these are the fields an agent uses.
    folder: z.looseObject({ folder_id: z.string(), collection_id: z.string(), path: z.string(), scan_task_id: z.string().nullable() }),
    note: z.string().optional(),
    scan: z.object(taskOutput).optional().describe('With wait_seconds: the scan task and its result'),
  },
  annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  async run(args, { api, extra, stopping }) {
    const { collection: id, wait_seconds: wait, ...body } = args;
    const folder = await api.POST('/collections/{collection_id}/folders', { params: { path: { collection_id: id } }, body });
    if (!wait || !folder.scan_task_id) return { folder, note: 'The first scan is queued: call get_task with scan_task_id (wait_seconds waits for it).' };
    const task = await waitForTask(api, folder.scan_task_id, wait, extra, stopping);
    if (task.status === 'failed') return toolError(`scan ${task.id} failed: ${task.error?.message ?? 'no reason given'}`);
    return { folder, scan: taskView(task, DEFAULT_MAX_CHARS) };
  },
});
