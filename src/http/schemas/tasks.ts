import { z } from '@hono/zod-openapi';
import { TASK_KINDS } from '../../services/task-kinds.js';
import { AnalyzeResult } from './analyze-result.js';
import { ClusterElement, SuggestionElement } from './explore.js';
import { SearchClustersBody, SuggestionsBody } from './submissions.js';
import { AnalyzeTaskData, IndexTaskData, ReindexTaskData } from './task-data.js';
import { IndexResult, ReindexResult, ScanResult } from './task-results.js';

const Status = z.enum(['queued', 'running', 'completed', 'failed']);

const TaskFields = {
  id: z.string(),
  task_id: z.string().openapi({ description: 'Same as id' }),
  status: Status,
  progress: z.number().min(0).max(1),
  stage: z.string().nullable().openapi({ description: 'What the task is doing now, in words' }),
  step: z
    .object({
      code: z.string().openapi({ description: 'The stage as a code a page says in its language (fetching, transcribing, on_screen_text, …; other for anything else)' }),
      item: z
        .object({ n: z.number().int(), total: z.number().int(), name: z.string() })
        .optional()
        .openapi({ description: 'For a task over many files or items: which one of how many, by name' }),
    })
    .nullable()
    .openapi({ description: 'vidx extra: the stage as a code with the item it is on; null before the task starts' }),
  error: z
    .object({
      message: z.string().openapi({ description: "What went wrong, naming the user's file as they know it" }),
      code: z.string().openapi({ description: 'not_media, unsupported_format, truncated, outside_roots, unreachable, collection_deleted, tool_failed, hub_unreachable, hub_port_blocked, interrupted, internal, …', example: 'not_media' }),
      retryable: z.boolean().openapi({ description: 'false: running it again cannot help (bad media, a refused path, a deleted collection); true: the cause may pass' }),
      params: z
        .record(z.string(), z.string())
        .optional()
        .openapi({ description: 'vidx extra: the parameters of the message the code names (hub_unreachable: hub, reason, id, repo, revision; hub_port_blocked: hub, port), for a client that words the failure in its own language' }),
    })
    .nullable()
    .openapi({ description: 'Why it failed; null unless failed (a vidx choice: SPEC 2.4 leaves it open)' }),
  attempts: z.number().int(),
  worker: z.string().nullable().openapi({ description: 'vidx extra: the worker (`vidx worker` id, or `local` for the server’s own) that took the task’s latest analysis job; null when analyses run in the server’s process' }),
  created_at: z.string(),
  updated_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
};

/** One kind of task: its kind and endpoint, its input (`data`) and its output (`result`, null until it completed). */
function taskKind<K extends string, D extends z.ZodType, R extends z.ZodType>(name: string, kind: K, endpoint: string, data: D, result: R, description: string) {
  return z
    .object({
      ...TaskFields,
      kind: z.literal(kind).openapi({ description: 'vidx extra: what the task does' }),
      endpoint: z.string().openapi({ description: 'The path of the endpoint that made the task', example: endpoint }),
      data,
      result: z.union([result, z.null()]).openapi({ description: 'Output once completed; null otherwise' }),
    })
    .openapi(name, { description });
}

/**
 * Every kind of task, told apart by `kind` (what GET /tasks/{task_id} answers).
 * @example
 * responses: { 200: jsonResponse(Task, 'The task') }
 */
export const Task = z
  .discriminatedUnion('kind', [
    taskKind('IndexTask', 'index', '/index', IndexTaskData, IndexResult, 'A POST /index task'),
    taskKind('AnalyzeTask', 'analyze', '/analyze', AnalyzeTaskData, AnalyzeResult, 'A POST /analyze task'),
    taskKind('ScanTask', 'folder_scan', '/collections/trips/folders/0193a4b2-…/scan', z.object({ folder_id: z.string(), collection: z.string().nullable().optional(), path: z.string().optional() }).openapi('ScanTaskData'), ScanResult, 'A folder scan (POST …/folders/{folder_id}/scan, a new folder, or a watched folder that changed)'),
    taskKind('ReindexTask', 'reindex', '/collections/trips/reindex', ReindexTaskData, ReindexResult, 'A POST /collections/{collection_id}/reindex task: items analysed again from their sources'),
    taskKind('SearchClustersTask', 'clusters', '/search_clusters', z.object({ request: SearchClustersBody }).openapi('SearchClustersTaskData'), z.array(ClusterElement), 'A deferred POST /search_clusters?defer=true: the result is the list of elements the stream would have sent'),
    taskKind(
      'ModelPullTask', 'model_pull', '/models/tiny-whisper/pull',
      z.object({ model_id: z.string() }).openapi('ModelPullTaskData'),
      z.object({ model_id: z.string(), already_installed: z.boolean(), bytes_fetched: z.number().int() }).openapi('ModelPullResult'),
      'A POST /models/{model_id}/pull task (admins): the download with its bytes as progress',
    ),
    taskKind('SuggestionsTask', 'suggestions', '/collection_suggestions', z.object({ request: SuggestionsBody }).openapi('SuggestionsTaskData'), z.array(SuggestionElement), 'A deferred POST /collection_suggestions?defer=true: the result is the list of elements the stream would have sent'),
  ])
  .openapi('Task', { description: 'A task; `kind` says what it does, and so the shape of `data` and `result`' });

export const TaskListQuery = z.object({
  status: Status.optional(),
  kind: z.enum(TASK_KINDS).optional().openapi({ description: 'vidx extra: only tasks of this kind' }),
  endpoint: z.string().max(200).optional().openapi({ description: 'The endpoint the task came from, with or without its slash: /analyze or analyze; a folder scan path matches every folder scan' }),
  limit: z.coerce.number().int().min(1).max(100).optional().default(20).openapi({ type: 'integer', default: 20 }),
  offset: z.coerce.number().int().min(0).optional().default(0).openapi({ type: 'integer', default: 0 }),
});

export const TaskList = z.object({ tasks: z.array(Task), total: z.number().int(), limit: z.number().int(), offset: z.number().int() }).openapi('TaskList');

export const TaskCounts = z
  .object({ queued: z.number().int(), running: z.number().int(), completed: z.number().int(), failed: z.number().int(), total: z.number().int() })
  .openapi('TaskCounts');

export const TaskParams = z.object({ task_id: z.string().min(1).max(100).openapi({ param: { name: 'task_id', in: 'path' } }) });

export const TaskCreated = z.object({ task_id: z.string() }).openapi('TaskCreated');
