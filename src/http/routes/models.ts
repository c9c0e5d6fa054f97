import { createRoute } from '@hono/zod-openapi';
import type { App, HttpDeps } from '../env.js';
import { adminOnly } from '../middleware/auth/index.js';
import { errors, jsonResponse, SECURITY } from '../schemas/common.js';
import { ModelImportBody, ModelInfo, ModelList, ModelParams } from '../schemas/models.js';
import { formEnvelope } from '../schemas/submissions.js';
import { readFormBody, removeUploads } from '../middleware/form-body/index.js';
import { Problem } from '../../services/errors.js';
import { msg } from '../../messages/index.js';
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

const importModel = createRoute({
  method: 'post', path: '/models/import', operationId: 'importModel', tags, security: SECURITY, middleware,
  summary: 'Install a model downloaded elsewhere, from an archive, checked against the manifest first (admin; a vidx extra)',
  description:
    'For a machine without the hub: send a tar (or tar.gz) written by `vidx models export <id>` on another vidx, or a tar of the model repository folder as the hub lays it out (e.g. made by `hf download`). Every file the manifest names must be there with its size (and SHA-256 where the manifest knows it); links, absolute names and `..` are refused. Nothing is installed unless all of it checks out; a bad file is a 422 whose code says why (`import_missing_file`, `import_wrong_size`, `import_wrong_hash`, `import_unsafe_path`, `import_not_archive`, `import_too_large`, `import_too_many_entries`, `import_ambiguous`, …) and whose message names the file. Only the files the manifest names are unpacked, each at most its expected size and a quarter more (all of them at most the largest model’s), from at most 10,000 archive members; the first breach stops the import and removes what it wrote.',
  request: { body: { required: true, content: formEnvelope(ModelImportBody, { uploads: true, fileDescription: 'The archive; `archive` in the body names it by its file name (or this part name). The body field must come before it.' }) } },
  responses: { 200: jsonResponse(ModelInfo, 'The model as it is now (installed)'), ...errors(400, 401, 403, 404, 409, 413, 415, 422) },
});

/** The one file part an import takes: the one `archive` names. */
function namedArchive(body: unknown): string[] {
  const archive = (body as { archive?: unknown } | null)?.archive;
  return typeof archive === 'string' ? [archive] : [];
}

/**
 * /models: the Models view's endpoints over the model manifest.
 * @example
 * modelRoutes(app, deps);
 */
export function modelRoutes(app: App, deps: HttpDeps): void {
  app.openapi(list, (c) => c.json(deps.models.list(), 200));
  app.openapi(pull, (c) => c.json({ task_id: deps.models.pull(c.get('caller'), c.req.valid('param').model_id).id }, 202));
  app.openAPIRegistry.registerPath(importModel);
  // Read by hand so the archive streams to disk (as uploads to /index do).
  app.post('/models/import', middleware, async (c) => {
    const { value, uploads } = await readFormBody(c, ModelImportBody, deps.form, namedArchive);
    try {
      const upload = uploads.find((u) => u.filename === value.archive) ?? uploads.find((u) => u.field === value.archive);
      if (!upload) throw new Problem('invalid', msg('import_no_archive'), [{ field: 'archive', message: msg('import_no_archive') }], 'import_no_archive');
      return c.json(await deps.models.importArchive(upload.path, value.model_id), 200);
    } finally {
      removeUploads(uploads);
    }
  });
  app.openapi(remove, (c) => c.json(deps.models.remove(c.req.valid('param').model_id), 200));
}
