import { createRoute } from '@hono/zod-openapi';
import type { App, HttpDeps } from '../env.js';
import { adminOnly } from '../middleware/auth/index.js';
import { errors, jsonResponse, SECURITY } from '../schemas/common.js';
import { ModelInfo, ModelList, ModelParams } from '../schemas/models.js';
import { TaskCreated } from '../schemas/tasks.js';

const tags = ['models'];
const middleware = adminOnly();

const list = createRoute({
  method: 'get', path: '/models', operationId: 'listModels', tags, security: SECURITY, middleware,
  summary: 'The models vidx can pull, with state and size, and every capability with its model (admin; a vidx extra)',
  responses: { 200: jsonResponse(ModelList, 'Models and capabilities'), ...errors(401, 403) },
});

const pull = createRoute({
  method: 'post', path: '/models/{model_id}/pull', operationId: 'pullModel', tags, security: SECURITY, middleware,
  summary: 'Download a model as a task with progress, as `vidx models pull` does (admin; a vidx extra)',
  request: { params: ModelParams },
  responses: { 202: jsonResponse(TaskCreated, 'The pull task (a pull of the same model already under way is returned instead)'), ...errors(401, 403, 404) },
});

const remove = createRoute({
  method: 'delete', path: '/models/{model_id}', operationId: 'removeModel', tags, security: SECURITY, middleware,
  summary: "Delete a model's files (admin; a vidx extra)",
  request: { params: ModelParams },
  responses: { 200: jsonResponse(ModelInfo, 'The model as it is now (missing)'), ...errors(401, 403, 404, 409) },
});

/**
 * /models: the Models view's endpoints over the model manifest.
 * @example
 * modelRoutes(app, deps);
 */
export function modelRoutes(app: App, deps: HttpDeps): void {
  app.openapi(list, (c) => c.json(deps.models.list(), 200));
  app.openapi(pull, (c) => c.json({ task_id: deps.models.pull(c.get('caller'), c.req.valid('param').model_id).id }, 202));
  app.openapi(remove, (c) => c.json(deps.models.remove(c.req.valid('param').model_id), 200));
}
