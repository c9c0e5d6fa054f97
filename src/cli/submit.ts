/**
 * Sending a video to POST /index or /analyze the way the CLI does it: a URL as `video.url`; a local file
 * uploaded in the same multipart request (`video.content`), which works whatever the server's media roots
 * are; or, with `--path`, the file's absolute path as `video.path` (no copy, but it must lie inside the
 * server's VIDX_MEDIA_ROOTS). Then it waits for the task unless told not to.
 */
import { openAsBlob, statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import type { RequestBody, Schemas, UploadPath, UploadRequest, VidxClient } from '../client/index.js';
import { CliError, EXIT } from './client.js';
import { waitForTask, type TaskView } from './wait.js';
import { output } from './common.js';

/** The video fields the CLI can set (SPEC's video object). */
/** The flags `vidx index` and `vidx analyze` share: the video fields and how to send and wait. */
export const VIDEO_OPTIONS = {
  'media-id': { type: 'string' },
  title: { type: 'string' },
  metadata: { type: 'string' },
  path: { type: 'boolean', default: false },
  'no-wait': { type: 'boolean', default: false },
  quiet: { type: 'boolean', short: 'q', default: false },
} as const;

/** The help lines of {@link VIDEO_OPTIONS}. */
export const VIDEO_HELP = `  --title T         title
  --metadata JSON   additional_metadata, a JSON object
  --path            send the file's absolute path instead of uploading it (it must lie in the server's VIDX_MEDIA_ROOTS)
  --no-wait         print the task id and return at once (follow it with \`vidx tasks show <id> --wait\`)
  -q, --quiet       no progress on stderr`;

export interface VideoFields {
  media_id?: string;
  title?: string;
  additional_metadata?: Record<string, unknown>;
}

/** How to send and whether to wait. */
export interface SubmitOptions {
  /** Send the file's path instead of uploading it. */
  byPath: boolean;
  wait: boolean;
  quiet: boolean;
}

/** The queued task, and its final state when waited for. */
export interface Submitted {
  taskId: string;
  task?: TaskView;
}

/**
 * Parses `--metadata '{"k": "v"}'` into an object, or a usage error.
 * @example
 * metadataFlag('{"place":"home"}'); // { place: 'home' }
 */
export function metadataFlag(raw: string | undefined): Record<string, unknown> | undefined {
  if (raw === undefined) return undefined;
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    throw new CliError(`--metadata must be a JSON object, got ${raw}`, EXIT.USAGE);
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new CliError('--metadata must be a JSON object', EXIT.USAGE);
  return v as Record<string, unknown>;
}

/**
 * Queues the task for `source` (a file or an http(s) URL) with the other body fields, then waits for it.
 * @example
 * const { task } = await submitVideo(apiClient(client), '/index', 'talk.mp4', { collection: 'trips' }, {}, { byPath: false, wait: true, quiet: false });
 */
export async function submitVideo<E extends UploadPath>(
  api: VidxClient,
  endpoint: E,
  source: string,
  body: Omit<RequestBody<E, 'post'>, 'video'>,
  fields: VideoFields,
  opts: SubmitOptions,
): Promise<Submitted> {
  const video: Schemas['VideoInput'] = { ...fields };
  let upload: string | undefined;
  if (/^https?:\/\//i.test(source)) {
    if (opts.byPath) throw new CliError('--path is for local files; a URL is always sent as video.url', EXIT.USAGE);
    video.url = source;
  } else {
    const file = resolve(source);
    let size: number;
    try {
      const st = statSync(file);
      if (!st.isFile()) throw new Error('not a regular file');
      size = st.size;
    } catch (err) {
      throw new CliError(`cannot read ${source}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, EXIT.USAGE);
    }
    if (opts.byPath) {
      video.path = file;
    } else {
      upload = file;
      if (!opts.quiet) process.stderr.write(`uploading ${basename(file)} (${(size / 1e6).toFixed(1)} MB)…\n`);
    }
  }
  // Either endpoint's own fields with the video beside them; TypeScript cannot follow that through the generic E.
  const request = { ...body, video } as UploadRequest;
  const created = upload
    ? // openAsBlob streams the file from disk as it is sent; a multi-gigabyte video is never held in memory.
      await api.upload(endpoint, request, await openAsBlob(upload), basename(upload))
    : await api.POST(endpoint as UploadPath, { body: request });
  if (!opts.wait) return { taskId: created.task_id };
  if (!opts.quiet) process.stderr.write(`task ${created.task_id}\n`);
  const task = await waitForTask(api, created.task_id, { stderr: process.stderr, quiet: opts.quiet });
  return { taskId: created.task_id, task };
}

/**
 * Prints what `index` or `analyze` ended with and picks the exit code: the task id (--no-wait), the
 * failure on stderr, or the result described by `describe` (the whole task with --json).
 * @example
 * return reportTask('index', values.json, submitted, describeIndexResult);
 */
export function reportTask(command: string, json: boolean | undefined, submitted: Submitted, describe: (result: never) => string): number {
  const { taskId, task } = submitted;
  if (!task) {
    output(json, { task_id: taskId }, taskId);
    return EXIT.OK;
  }
  if (task.status === 'failed') {
    output(json, task, '');
    process.stderr.write(`vidx ${command}: task ${task.id} failed: ${task.error?.message ?? 'no reason given'}${task.error && !task.error.retryable ? ' (retrying cannot help)' : ''}\n`);
    return EXIT.FAILED;
  }
  output(json, task, describe(task.result as never));
  return EXIT.OK;
}
