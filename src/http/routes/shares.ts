import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { ShareView } from '../../services/shares.js';
import type { App, AppEnv, HttpDeps } from '../env.js';
import { errors, jsonResponse, SECURITY } from '../schemas/common.js';
import { readerLanguage } from '../german.js';
import { Share, ShareCreate, SharedMoment, SharedParams, ShareItemParams, ShareParams } from '../schemas/shares.js';

const tags = ['shares'];

const create = createRoute({
  method: 'post', path: '/collections/{collection_id}/items/{media_id}/shares', operationId: 'createShare', tags, security: SECURITY,
  summary: 'A link that plays a moment of this item without a key, for 1 or 7 days (owner or admin; a vidx extra)',
  request: { params: ShareItemParams, body: { required: true, content: { 'application/json': { schema: ShareCreate } } } },
  responses: { 201: jsonResponse(Share, 'The share with its link'), ...errors(400, 401, 403, 404, 422) },
});

const list = createRoute({
  method: 'get', path: '/collections/{collection_id}/items/{media_id}/shares', operationId: 'listShares', tags, security: SECURITY,
  summary: "The item's share links that have not expired (owner or admin)",
  request: { params: ShareItemParams },
  responses: { 200: jsonResponse(z.object({ shares: z.array(Share) }), 'The shares, newest first'), ...errors(401, 403, 404) },
});

const revoke = createRoute({
  method: 'delete', path: '/collections/{collection_id}/items/{media_id}/shares/{share_id}', operationId: 'revokeShare', tags, security: SECURITY,
  summary: 'Revoke a share link: it and every file link it handed out stop at once (owner or admin)',
  request: { params: ShareParams },
  responses: { 200: jsonResponse(Share, 'The revoked share'), ...errors(401, 403, 404) },
});

const open = createRoute({
  method: 'get', path: '/shared/{token}', operationId: 'openShare', tags, security: [],
  summary: 'What a share link shows: the item to play from its moment, chapters and transcript (no key)',
  request: { params: SharedParams },
  responses: { 200: jsonResponse(SharedMoment, 'The shared moment'), ...errors(404, 422) },
});

/** A share with the page link it opens: `<origin>/#/s/<token>` (the page plays it without a key). */
function withUrl(c: Context<AppEnv>, s: ShareView) {
  const { token, ...rest } = s;
  return { ...rest, url: `${new URL(c.req.url).origin}/#/s/${token}` };
}

/**
 * Share links: made, listed and revoked by an item's owner; opened by anyone holding one.
 * @example
 * shareRoutes(app, deps);
 */
export function shareRoutes(app: App, deps: HttpDeps): void {
  app.openapi(create, (c) => {
    const p = c.req.valid('param');
    return c.json(withUrl(c, deps.shares.create(c.get('caller'), p.collection_id, p.media_id, c.req.valid('json'))), 201);
  });
  app.openapi(list, (c) => {
    const p = c.req.valid('param');
    return c.json({ shares: deps.shares.list(c.get('caller'), p.collection_id, p.media_id).map((s) => withUrl(c, s)) }, 200);
  });
  app.openapi(revoke, (c) => {
    const p = c.req.valid('param');
    return c.json(withUrl(c, deps.shares.revoke(c.get('caller'), p.collection_id, p.media_id, p.share_id)), 200);
  });
  app.openapi(open, (c) => {
    c.header('cache-control', 'no-store');
    return c.json(deps.shares.open(c.req.valid('param').token, readerLanguage(c.req.header('accept-language')) ?? undefined), 200);
  });
}
