import { createRoute, z } from '@hono/zod-openapi';
import type { App, HttpDeps } from '../env.js';
import { errors, jsonResponse, SECURITY } from '../schemas/common.js';
import { CollectionParams, ItemListQuery, ItemParams, ItemPatch, ItemQuery, MediaItem, ReindexBody } from '../schemas/collections.js';
import { GEONAMES_CREDIT, PlaceList } from '../schemas/places.js';
import { TaskCreated } from '../schemas/tasks.js';
import { answerLanguage } from '../german.js';
import { placeCountIn, withPlaceIn } from '../../services/places.js';

const tags = ['items'];
const json = jsonResponse;

const list = createRoute({
  method: 'get', path: '/collections/{collection_id}/items', operationId: 'listItems', tags, security: SECURITY,
  summary: 'List media items, oldest first, by cursor',
  request: { params: CollectionParams, query: ItemListQuery },
  responses: {
    200: json(
      z.object({
        items: z.array(MediaItem),
        offset: z.string().nullable().openapi({ description: 'Pass as offset for the next page; null on the last page' }),
        total: z.number().int().openapi({ description: 'vidx extra: how many items the listing covers (of the type asked for)' }),
      }),
      'A page of items',
    ),
    ...errors(401, 404, 422),
  },
});

const places = createRoute({
  method: 'get', path: '/collections/{collection_id}/places', operationId: 'listPlaces', tags, security: SECURITY,
  summary: 'The places the items were recorded at, with counts (a vidx extra; named offline from GPS)',
  request: { params: CollectionParams, query: ItemQuery },
  responses: { 200: json(PlaceList, 'Places, most items first'), ...errors(401, 404, 422) },
});

const read = createRoute({
  method: 'get', path: '/collections/{collection_id}/items/{media_id}', operationId: 'getItem', tags, security: SECURITY, summary: 'Read a media item',
  request: { params: ItemParams, query: ItemQuery },
  responses: { 200: json(MediaItem, 'The item'), ...errors(401, 404, 422) },
});

const patch = createRoute({
  method: 'patch', path: '/collections/{collection_id}/items/{media_id}', operationId: 'updateItem', tags, security: SECURITY,
  summary: "Rename an item or change its metadata (a vidx extra; owner or admin); kept through rescans and re-index",
  request: { params: ItemParams, body: { required: true, content: { 'application/json': { schema: ItemPatch } } } },
  responses: { 200: json(MediaItem, 'The item as changed'), ...errors(400, 401, 403, 404, 422) },
});

const reindex = createRoute({
  method: 'post', path: '/collections/{collection_id}/reindex', operationId: 'reindexItems', tags, security: SECURITY,
  summary: 'Analyse items again from their sources (a vidx extra; owner or admin): after turning faces on or pulling a model',
  request: { params: CollectionParams, body: { required: false, content: { 'application/json': { schema: ReindexBody } } } },
  responses: { 202: json(TaskCreated, 'The re-index task: GET /tasks/{task_id} shows its progress per item'), ...errors(400, 401, 403, 404, 422) },
});

const remove = createRoute({
  method: 'delete', path: '/collections/{collection_id}/items/{media_id}', operationId: 'deleteItem', tags, security: SECURITY,
  summary: 'Remove a media item with its index rows, vectors and files',
  request: { params: ItemParams },
  responses: { 200: json(z.object({ collection_id: z.string(), media_id: z.string() }), 'What was removed'), ...errors(401, 403, 404, 422) },
});

/**
 * The item endpoints of SPEC 4.3 (the analysis endpoint lives with search).
 * @example
 * itemRoutes(app, deps);
 */
export function itemRoutes(app: App, deps: HttpDeps): void {
  app.openapi(list, async (c) => {
    const q = c.req.valid('query');
    const opts = {
      public: q.is_public, limit: q.limit, offset: q.offset ?? null, sort: q.sort, ...(q.order ? { order: q.order } : {}), ...(q.type ? { type: q.type } : {}),
      ...(q.near !== undefined ? { near: q.near } : {}), ...(q.near_km !== undefined ? { near_km: q.near_km } : {}),
      ...(q.captured_after ? { captured_after: new Date(q.captured_after).toISOString() } : {}), ...(q.captured_before ? { captured_before: new Date(q.captured_before).toISOString() } : {}),
    };
    const listed = await deps.items.list(c.get('caller'), c.req.valid('param').collection_id, opts);
    const lang = answerLanguage(c);
    return c.json({ ...listed, items: listed.items.map((i) => withPlaceIn(i, lang)) }, 200);
  });
  app.openapi(places, (c) => {
    const places = deps.items.places(c.get('caller'), c.req.valid('param').collection_id, { public: c.req.valid('query').is_public });
    const lang = answerLanguage(c);
    return c.json({ places: places.map((p) => placeCountIn(p, lang)), credit: GEONAMES_CREDIT }, 200);
  });
  app.openapi(read, (c) => {
    const p = c.req.valid('param');
    return c.json(withPlaceIn(deps.items.get(c.get('caller'), p.collection_id, p.media_id, { public: c.req.valid('query').is_public }), answerLanguage(c)), 200);
  });
  app.openapi(patch, (c) => {
    const p = c.req.valid('param');
    return c.json(withPlaceIn(deps.items.edit(c.get('caller'), p.collection_id, p.media_id, c.req.valid('json')), answerLanguage(c)), 200);
  });
  app.openapi(reindex, (c) => {
    const body = c.req.valid('json') ?? {};
    return c.json({ task_id: deps.submissions.reindex(c.get('caller'), c.req.valid('param').collection_id, body.media_ids ?? null).id }, 202);
  });
  app.openapi(remove, (c) => {
    const p = c.req.valid('param');
    return c.json(deps.items.delete(c.get('caller'), p.collection_id, p.media_id), 200);
  });
}
