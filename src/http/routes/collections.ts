import { createRoute, z } from '@hono/zod-openapi';
import type { App, HttpDeps } from '../env.js';
import { errors, jsonResponse, SECURITY } from '../schemas/common.js';
import { Collection, CollectionCreate, CollectionParams, CollectionQuery, CollectionUpdate } from '../schemas/collections.js';

const tags = ['collections'];
const json = jsonResponse;

const create = createRoute({
  method: 'post', path: '/collections', operationId: 'createCollection', tags, security: SECURITY, summary: 'Create a collection',
  request: { body: { required: true, content: { 'application/json': { schema: CollectionCreate } } } },
  responses: { 201: json(Collection, 'Created'), ...errors(400, 401, 403, 409, 415, 422) },
});

const list = createRoute({
  method: 'get', path: '/collections', operationId: 'listCollections', tags, security: SECURITY,
  summary: 'List collections: your own (public=false) or every public one (public=true)',
  request: { query: CollectionQuery },
  responses: { 200: json(z.object({ collections: z.array(Collection) }), 'Collections'), ...errors(401, 422) },
});

const read = createRoute({
  method: 'get', path: '/collections/{collection_id}', operationId: 'getCollection', tags, security: SECURITY, summary: 'Read a collection',
  request: { params: CollectionParams, query: CollectionQuery },
  responses: { 200: json(Collection, 'The collection'), ...errors(401, 404, 422) },
});

const update = createRoute({
  method: 'put', path: '/collections/{collection_id}', operationId: 'updateCollection', tags, security: SECURITY, summary: 'Update a collection (owner or admin)',
  request: { params: CollectionParams, body: { required: true, content: { 'application/json': { schema: CollectionUpdate } } } },
  responses: { 200: json(Collection, 'Updated'), ...errors(400, 401, 403, 404, 415, 422) },
});

const remove = createRoute({
  method: 'delete', path: '/collections/{collection_id}', operationId: 'deleteCollection', tags, security: SECURITY,
  summary: 'Delete a collection with its items, index rows, vectors and files',
  description: 'Answers once the collection is hidden (404 from then on, its id free again); its rows and files are removed in the background in short transactions, and a purge cut short is finished after the next start.',
  request: { params: CollectionParams },
  responses: { 200: json(Collection, 'The deleted collection'), ...errors(401, 403, 404, 422) },
});

/**
 * The five collection endpoints of SPEC 4.3.
 * @example
 * collectionRoutes(app, deps);
 */
export function collectionRoutes(app: App, deps: HttpDeps): void {
  const svc = deps.collections;
  app.openapi(create, (c) => c.json(svc.create(c.get('caller'), c.req.valid('json')), 201));
  app.openapi(list, (c) => {
    const q = c.req.valid('query');
    return c.json({ collections: svc.list(c.get('caller'), { public: q.public, thumbnails: q.return_thumbnails }) }, 200);
  });
  app.openapi(read, (c) => {
    const q = c.req.valid('query');
    return c.json(svc.get(c.get('caller'), c.req.valid('param').collection_id, { public: q.public, thumbnails: q.return_thumbnails }), 200);
  });
  app.openapi(update, (c) => c.json(svc.update(c.get('caller'), c.req.valid('param').collection_id, c.req.valid('json')), 200));
  app.openapi(remove, (c) => c.json(svc.delete(c.get('caller'), c.req.valid('param').collection_id), 200));
}
