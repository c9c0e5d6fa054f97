import { z } from '@hono/zod-openapi';
import { LANGS } from '../../messages/index.js';
import type { AnalyzeTaskData as AnalyzeTaskDataType, IndexTaskData as IndexTaskDataType, StoredVideo as StoredVideoType } from '../../services/submissions.js';
import type { SameShape } from './explore.js';
import type { ReindexTaskData as ReindexTaskDataType } from '../../services/analysis/reindex-task.js';

/** The video object as a task keeps it (SPEC 2.4): every field present, unset ones null. */
const StoredVideo = z
  .object({
    path: z.string().nullable(),
    url: z.string().nullable(),
    content: z.string().nullable().openapi({ description: 'The name the upload was given' }),
    media_id: z.string().openapi({ description: 'Generated when the request left it out' }),
    title: z.string().nullable(),
    additional_metadata: z.record(z.string(), z.unknown()).nullable(),
    file_modified_at: z.string().optional().openapi({ description: 'vidx extra, only when it was given: the file date the caller sent' }),
  })
  .openapi('StoredVideo');

/** An upload as callers see it: where the server keeps the file is never shown. */
const TaskUpload = z
  .object({ filename: z.string(), size: z.number().int().openapi({ description: 'Bytes' }) })
  .nullable()
  .openapi({ description: 'The uploaded file the task took over; null without an upload' });

/**
 * Input of a POST /index task, as GET /tasks/{task_id} shows it.
 * @example
 * IndexTaskData.parse(task.data).video.media_id;
 */
export const IndexTaskData = z
  .object({
    video: StoredVideo,
    collection: z.string(),
    index_language: z.enum(LANGS).nullable().openapi({ description: 'As asked (default en); null only inside vidx, where the media decides' }),
    reindex_if_exists: z.boolean(),
    upload: TaskUpload,
  })
  .openapi('IndexTaskData');

/**
 * Input of a POST /analyze task, as GET /tasks/{task_id} shows it.
 * @example
 * AnalyzeTaskData.parse(task.data).upload?.filename;
 */
export const AnalyzeTaskData = z.object({ video: StoredVideo, upload: TaskUpload }).openapi('AnalyzeTaskData');

/**
 * Input of a re-index task (POST /collections/{collection_id}/reindex).
 * @example
 * ReindexTaskData.parse(task.data).media_ids; // null: every item
 */
export const ReindexTaskData = z
  .object({
    collection: z.string(),
    media_ids: z.array(z.string()).nullable().openapi({ description: 'The items to analyse again; null: every item of the collection' }),
  })
  .openapi('ReindexTaskData');

// The service stores `upload` with the server-side file name; the view drops it (src/services/tasks.ts publicData).
true satisfies SameShape<z.output<typeof StoredVideo>, StoredVideoType>;
true satisfies SameShape<Omit<z.output<typeof IndexTaskData>, 'upload'>, Omit<IndexTaskDataType, 'upload'>>;
true satisfies SameShape<Omit<z.output<typeof AnalyzeTaskData>, 'upload'>, Omit<AnalyzeTaskDataType, 'upload'>>;
true satisfies SameShape<z.output<typeof ReindexTaskData>, ReindexTaskDataType>;
