import { createRoute, z } from '@hono/zod-openapi';
import type { App, HttpDeps } from '../env.js';
import { adminOnly } from '../middleware/auth/index.js';
import { errors, SECURITY } from '../schemas/common.js';
import { KeyCreate, KeyCreated, KeyInfo, KeyParams, KeyRoleSchema } from '../schemas/keys.js';

const tags = ['keys'];
const middleware = adminOnly();

const create = createRoute({
  method: 'post', path: '/keys', operationId: 'createKey', tags, security: SECURITY, middleware, summary: 'Create an API key (admin)',
  request: { body: { required: true, content: { 'application/json': { schema: KeyCreate } } } },
  responses: { 201: { description: 'Created; `key` is shown only here', content: { 'application/json': { schema: KeyCreated } } }, ...errors(400, 401, 403, 415, 422) },
});

const list = createRoute({
  method: 'get', path: '/keys', operationId: 'listKeys', tags, security: SECURITY, middleware, summary: 'List API keys (admin)',
  responses: { 200: { description: 'Keys without their secrets', content: { 'application/json': { schema: z.object({ keys: z.array(KeyInfo) }) } } }, ...errors(401, 403) },
});

const me = createRoute({
  method: 'get', path: '/me', operationId: 'getMe', tags, security: SECURITY, summary: 'The calling key: id, name and role (a vidx extra; the web page uses it to sign in)',
  responses: { 200: { description: 'The key the request carries', content: { 'application/json': { schema: z.object({ id: z.string(), name: z.string(), role: KeyRoleSchema }).openapi('Me') } } }, ...errors(401) },
});

const remove = createRoute({
  method: 'delete', path: '/keys/{key_id}', operationId: 'revokeKey', tags, security: SECURITY, middleware, summary: 'Revoke an API key (admin)',
  request: { params: KeyParams },
  responses: { 200: { description: 'The revoked key', content: { 'application/json': { schema: KeyInfo } } }, ...errors(401, 403, 404, 409) },
});

/**
 * /keys: admin key management; /me: who the calling key is (any key).
 * @example
 * keyRoutes(app, deps);
 */
export function keyRoutes(app: App, deps: HttpDeps): void {
  app.openapi(create, (c) => {
    const { name, role, worker_id, max_concurrency } = c.req.valid('json');
    return c.json(deps.keys.create(name, role, { workerId: worker_id, maxConcurrency: max_concurrency }), 201);
  });
  app.openapi(list, (c) => c.json({ keys: deps.keys.list() }, 200));
  app.openapi(me, (c) => {
    const { id, name, role } = c.get('caller');
    return c.json({ id, name, role }, 200);
  });
  app.openapi(remove, (c) => c.json(deps.keys.revoke(c.req.valid('param').key_id), 200));
}
