import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { App, AppEnv, HttpDeps } from '../env.js';
import { readFormBody } from '../middleware/form-body/index.js';
import { CollectionParams } from '../schemas/collections.js';
import { errors, jsonResponse, SECURITY } from '../schemas/common.js';
import { Folder, FolderCreate, FolderDeleteQuery, FolderParams } from '../schemas/folders.js';
import { formEnvelope } from '../schemas/submissions.js';
import { TaskCreated } from '../schemas/tasks.js';
import { validationProblem } from '../validation.js';

const tags = ['folders'];
const json = jsonResponse;

const create = createRoute({
  method: 'post', path: '/collections/{collection_id}/folders', operationId: 'createFolder', tags, security: SECURITY,
  summary: 'vidx extra: bind a folder to a collection and queue its first scan',
  description: 'Every media file under the folder (videos, audio, pictures; recognised by content) becomes an item of the collection. `path` must lie inside VIDX_MEDIA_ROOTS after symbolic links (else 422); the same folder twice in one collection, or one nested in or around another of its folders, is a 409.',
  request: { params: CollectionParams, body: { required: true, content: formEnvelope(FolderCreate) } },
  responses: { 201: json(Folder, 'Created; its first scan is queued (scan_task_id)'), ...errors(400, 401, 403, 404, 409, 413, 415, 422) },
});

const list = createRoute({
  method: 'get', path: '/collections/{collection_id}/folders', operationId: 'listFolders', tags, security: SECURITY, summary: "vidx extra: the collection's folders",
  request: { params: CollectionParams },
  responses: { 200: json(z.object({ folders: z.array(Folder) }), 'Folders, oldest first'), ...errors(401, 404, 422) },
});

const read = createRoute({
  method: 'get', path: '/collections/{collection_id}/folders/{folder_id}', operationId: 'getFolder', tags, security: SECURITY, summary: 'vidx extra: read a folder',
  request: { params: FolderParams },
  responses: { 200: json(Folder, 'The folder'), ...errors(401, 404, 422) },
});

const remove = createRoute({
  method: 'delete', path: '/collections/{collection_id}/folders/{folder_id}', operationId: 'deleteFolder', tags, security: SECURITY,
  summary: 'vidx extra: unbind a folder (a running scan is stopped); remove_items=false keeps its items',
  request: { params: FolderParams, query: FolderDeleteQuery },
  responses: { 200: json(Folder, 'The folder as it was'), ...errors(401, 403, 404, 409, 422) },
});

const scan = createRoute({
  method: 'post', path: '/collections/{collection_id}/folders/{folder_id}/scan', operationId: 'scanFolder', tags, security: SECURITY,
  summary: 'vidx extra: scan a folder now (a task)',
  description: 'Incremental: unchanged files (size and mtime) cost one stat; moved or renamed files keep their item (content fingerprint); changed files are reindexed; deleted files leave the collection. The task result is `{found, added, changed, moved, removed, unchanged, skipped, skipped_files, failed, warnings}` with paths relative to the folder. A scan already waiting in the queue is returned instead of a second one.',
  request: { params: FolderParams },
  responses: { 202: json(TaskCreated, 'Queued; poll GET /tasks/{task_id}'), ...errors(401, 403, 404, 422) },
});

/**
 * The folder endpoints (vidx extras): add, list, read, remove, scan.
 * @example
 * folderRoutes(app, deps);
 */
export function folderRoutes(app: App, deps: HttpDeps): void {
  const svc = deps.folders;
  // Registered for the document only: the handler reads JSON or the form convention itself.
  app.openAPIRegistry.registerPath(create);
  app.post('/collections/:collection_id/folders', async (c: Context<AppEnv>) => {
    const params = CollectionParams.safeParse({ collection_id: c.req.param('collection_id') });
    if (!params.success) throw validationProblem(params.error.issues);
    const { value } = await readFormBody(c, FolderCreate, { ...deps.form, maxUploadBytes: 0 });
    return c.json(await svc.create(c.get('caller'), params.data.collection_id, value), 201);
  });
  app.openapi(list, (c) => c.json({ folders: svc.list(c.get('caller'), c.req.valid('param').collection_id) }, 200));
  app.openapi(read, (c) => {
    const p = c.req.valid('param');
    return c.json(svc.get(c.get('caller'), p.collection_id, p.folder_id), 200);
  });
  app.openapi(remove, async (c) => {
    const p = c.req.valid('param');
    return c.json(await svc.delete(c.get('caller'), p.collection_id, p.folder_id, c.req.valid('query').remove_items), 200);
  });
  app.openapi(scan, (c) => {
    const p = c.req.valid('param');
    return c.json(svc.scan(c.get('caller'), p.collection_id, p.folder_id), 202);
  });
}
