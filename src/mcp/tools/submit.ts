/**
 * What index_video and analyze_video share: the video fields, the optional wait, and queuing the task
 * through POST /index or /analyze.
 */
import { z } from 'zod';
import { taskView, waitForTask } from '../tasks.js';
import { toolError, type ToolContext } from '../tool.js';
import { DEFAULT_MAX_CHARS, mediaId } from './fields.js';
import { jsonLimitProblem, METADATA_LIMITS } from '../../tools/json-shape.js';
import type { RequestBody, UploadPath, UploadRequest } from '../../client/index.js';
import { english } from '../../messages/index.js';

/**
 * How long a tool may wait for its task.
 * @example
 * input: { task_id: z.string(), wait_seconds: waitSeconds }
 */
export const waitSeconds = z
  .number()
  .min(0)
  .max(600)
  .optional()
  .describe(
    'Seconds to wait for the task to end before answering (default 0: answer at once with the task_id). ' +
      'Many MCP clients give up on a tool call after 60 s; wait longer only if yours allows it, else poll get_task.',
  );

/**
 * The video object's fields a tool takes (SPEC 2.2; uploads are for the HTTP API and the CLI).
 * @example
 * input: { ...videoFields, collection }
 */
export const videoFields = {
  path: z.string().min(1).max(4096).optional().describe("Absolute path of a video file on the vidx server's machine; it must lie inside the server's VIDX_MEDIA_ROOTS (default: the home folder)"),
  url: z.string().min(1).max(2083).optional().describe('http(s) URL of a video file or of a page on a video-sharing site; the server downloads it'),
  media_id: mediaId.optional().describe('Id to give the video (1..36 letters, digits, _ or -); generated when omitted'),
  title: z.string().max(1000).optional().describe('Title of the video'),
  metadata: z
    .record(z.string(), z.unknown())
    .superRefine((v, ctx) => {
      const problem = jsonLimitProblem(v, METADATA_LIMITS);
      if (problem) ctx.addIssue({ code: 'custom', message: english(problem) });
    })
    .optional()
    .describe(`Free-form metadata stored with the video (additional_metadata): at most ${METADATA_LIMITS.maxDepth} levels deep, ${METADATA_LIMITS.maxBytes / 1024} KiB as JSON`),
};

type VideoArgs = { path?: string; url?: string; media_id?: string; title?: string; metadata?: Record<string, unknown> };

/**
 * Queues the task with the video object and the other body fields, waits if asked, and answers with the
 * task view; a task that failed while waited for is a tool error carrying its reason.
 * @example
 * return submitTask(ctx, '/index', args, { collection: args.collection }, args.wait_seconds);
 */
export async function submitTask<E extends UploadPath>(ctx: ToolContext, endpoint: E, v: VideoArgs, body: Omit<RequestBody<E, 'post'>, 'video'>, wait = 0) {
  if ((v.path === undefined) === (v.url === undefined)) throw new Error('give exactly one of path or url');
  const video = { path: v.path ?? null, url: v.url ?? null, media_id: v.media_id ?? null, title: v.title ?? null, additional_metadata: v.metadata ?? null };
  // Either endpoint's own fields with the video beside them; TypeScript cannot follow that through the generic E.
  const { task_id } = await ctx.api.POST(endpoint as UploadPath, { body: { ...body, video } as UploadRequest });
  return queuedOrWaited(ctx, task_id, wait);
}

/**
 * What a tool that queued a task answers: the task_id at once, or after waiting up to `wait` seconds the
 * task view (a failure as a tool error carrying its reason).
 * @example
 * return queuedOrWaited(ctx, task_id, args.wait_seconds);
 */
export async function queuedOrWaited(ctx: ToolContext, taskId: string, wait = 0) {
  if (!wait) return { task_id: taskId, status: 'queued' as const, note: 'Queued: call get_task with this task_id (wait_seconds waits for it).' };
  const task = await waitForTask(ctx.api, taskId, wait, ctx.extra, ctx.stopping);
  if (task.status === 'failed') return toolError(`task ${taskId} failed: ${task.error?.message ?? 'no reason given'}`);
  return taskView(task, DEFAULT_MAX_CHARS);
}
