import { z } from '@hono/zod-openapi';
import { SCAN_ENDPOINT } from '../../services/folders/service.js';
import { AnalyzeResult } from './analyze-result.js';
import { ClusterElement, SuggestionElement } from './explore.js';
import { SearchClustersBody, SuggestionsBody } from './jobs.js';
import { AnalyzeTaskData, IndexTaskData } from './task-data.js';
import { IndexResult, ScanResult } from './task-results.js';

const Status = z.enum(['queued', 'running', 'completed', 'failed']);

const TaskFields = {
  id: z.string(),
  task_id: z.string().openapi({ description: 'Same as id' }),
  status: Status,
  progress: z.number().min(0).max(1),
  stage: z.string().nullable().openapi({ description: 'What the task is doing now, in words' }),
  error: z
    .object({
      message: z.string().openapi({ description: "What went wrong, naming the user's file as they know it" }),
      code: z.string().openapi({ description: 'not_media, truncated, outside_roots, unreachable, collection_deleted, tool_failed, interrupted, internal, …', example: 'not_media' }),
      retryable: z.boolean().openapi({ description: 'false: running it again cannot help (bad media, a refused path, a deleted collection); true: the cause may pass' }),
    })
    .nullable()
    .openapi({ description: 'Why it failed; null unless failed (a vidx choice: SPEC 2.4 leaves it open)' }),
  attempts: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
};

/** One kind of task: its endpoint, its input (`data`) and its output (`result`, null until it completed). */
function taskKind<E extends string, D extends z.ZodType, R extends z.ZodType>(name: string, endpoint: E, data: D, result: R, description: string) {
  return z
    .object({ ...TaskFields, endpoint: z.literal(endpoint), data, result: z.union([result, z.null()]).openapi({ description: 'Output once completed; null otherwise' }) })
    .openapi(name, { description });
}

/**
 * Every kind of task, told apart by `endpoint` (what GET /tasks/{task_id} answers).
 * @example
 * responses: { 200: jsonResponse(Task, 'The task') }
 */
export const Task = z
  .discriminatedUnion('endpoint', [
    taskKind('IndexTask', '/index', IndexTaskData, IndexResult, 'A POST /index task'),
    taskKind('AnalyzeTask', '/analyze', AnalyzeTaskData, AnalyzeResult, 'A POST /analyze task'),
    taskKind('ScanTask', SCAN_ENDPOINT, z.object({ folder_id: z.string() }).openapi('ScanTaskData'), ScanResult, 'A folder scan (POST …/folders/{folder_id}/scan, a new folder, or a watched folder that changed)'),
    taskKind('SearchClustersTask', '/search_clusters', z.object({ request: SearchClustersBody }).openapi('SearchClustersTaskData'), z.array(ClusterElement), 'A deferred POST /search_clusters?defer=true: the result is the list of elements the stream would have sent'),
    taskKind('SuggestionsTask', '/collection_suggestions', z.object({ request: SuggestionsBody }).openapi('SuggestionsTaskData'), z.array(SuggestionElement), 'A deferred POST /collection_suggestions?defer=true: the result is the list of elements the stream would have sent'),
  ])
  .openapi('Task', { description: 'A task; `endpoint` says which kind, and so the shape of `data` and `result`' });

export const TaskListQuery = z.object({
  status: Status.optional(),
  endpoint: z.string().max(200).optional().openapi({ description: 'The endpoint the task came from, with or without its slash: /analyze or analyze' }),
  limit: z.coerce.number().int().min(1).max(100).optional().default(20).openapi({ type: 'integer', default: 20 }),
  offset: z.coerce.number().int().min(0).optional().default(0).openapi({ type: 'integer', default: 0 }),
});

export const TaskList = z.object({ tasks: z.array(Task), total: z.number().int(), limit: z.number().int(), offset: z.number().int() }).openapi('TaskList');

export const TaskCounts = z
  .object({ queued: z.number().int(), running: z.number().int(), completed: z.number().int(), failed: z.number().int(), total: z.number().int() })
  .openapi('TaskCounts');

export const TaskParams = z.object({ task_id: z.string().min(1).max(100).openapi({ param: { name: 'task_id', in: 'path' } }) });

export const TaskCreated = z.object({ task_id: z.string() }).openapi('TaskCreated');
