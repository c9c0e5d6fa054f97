import { createRoute } from '@hono/zod-openapi';
import type { App, HttpDeps } from '../env.js';
import { answerLanguage } from '../german.js';
import { kindOfEndpoint } from '../task-endpoints.js';
import { errors, jsonResponse, SECURITY } from '../schemas/common.js';
import { Task, TaskCounts, TaskList, TaskListQuery, TaskParams } from '../schemas/tasks.js';

const tags = ['tasks'];
const json = jsonResponse;

const list = createRoute({
  method: 'get', path: '/tasks', operationId: 'listTasks', tags, security: SECURITY, summary: 'List tasks, newest first (filter by status and endpoint)',
  request: { query: TaskListQuery },
  responses: { 200: json(TaskList, 'A page of tasks'), ...errors(401, 422) },
});

const count = createRoute({
  method: 'get', path: '/tasks/count', operationId: 'countTasks', tags, security: SECURITY, summary: 'Count tasks per status',
  responses: { 200: json(TaskCounts, 'Counts per status and in total'), ...errors(401) },
});

const read = createRoute({
  method: 'get', path: '/tasks/{task_id}', operationId: 'getTask', tags, security: SECURITY, summary: 'Read a task',
  request: { params: TaskParams },
  responses: { 200: json(Task, 'The task'), ...errors(401, 404) },
});

const remove = createRoute({
  method: 'delete', path: '/tasks/{task_id}', operationId: 'deleteTask', tags, security: SECURITY,
  summary: 'Delete a task; a running one is cancelled first',
  request: { params: TaskParams },
  responses: { 200: json(Task, 'The task as it was when deleted'), ...errors(401, 404, 409) },
});

const retry = createRoute({
  method: 'post', path: '/tasks/{task_id}/retry', operationId: 'retryTask', tags, security: SECURITY, summary: 'Queue a failed task again',
  request: { params: TaskParams },
  responses: { 202: json(Task, 'Queued again'), ...errors(401, 404, 409) },
});

/**
 * The task endpoints of SPEC 4.4.
 * @example
 * taskRoutes(app, deps);
 */
export function taskRoutes(app: App, deps: HttpDeps): void {
  app.openapi(list, (c) => {
    const { endpoint, ...q } = c.req.valid('query');
    const kind = endpoint === undefined ? q.kind : kindOfEndpoint(endpoint);
    if (endpoint !== undefined && (kind === undefined || (q.kind && q.kind !== kind))) {
      return c.json({ tasks: [], total: 0, limit: q.limit, offset: q.offset }, 200);
    }
    return c.json({ ...deps.tasks.list(c.get('caller'), { ...q, kind }, answerLanguage(c)), limit: q.limit, offset: q.offset }, 200);
  });
  app.openapi(count, (c) => c.json(deps.tasks.count(c.get('caller')), 200));
  app.openapi(read, (c) => c.json(deps.tasks.get(c.get('caller'), c.req.valid('param').task_id, answerLanguage(c)), 200));
  app.openapi(remove, async (c) => c.json(await deps.tasks.delete(c.get('caller'), c.req.valid('param').task_id, answerLanguage(c)), 200));
  app.openapi(retry, (c) => c.json(deps.tasks.retry(c.get('caller'), c.req.valid('param').task_id), 202));
}
