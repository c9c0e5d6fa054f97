import { createRoute, z } from '@hono/zod-openapi';
import type { App, HttpDeps } from '../env.js';
import { errors, jsonResponse, SECURITY } from '../schemas/common.js';
import { Webhook, WebhookCreate, WebhookParams, WebhookUpdate } from '../schemas/webhooks.js';

const tags = ['webhooks'];
const json = jsonResponse;

const list = createRoute({
  method: 'get', path: '/webhooks', operationId: 'listWebhooks', tags, security: SECURITY, summary: 'List your webhooks',
  responses: { 200: json(z.object({ webhooks: z.array(Webhook) }), 'Webhooks'), ...errors(401) },
});

const create = createRoute({
  method: 'post', path: '/webhooks', operationId: 'createWebhook', tags, security: SECURITY, summary: 'Register a webhook (all three events when events is omitted or null)',
  request: { body: { required: true, content: { 'application/json': { schema: WebhookCreate } } } },
  responses: { 201: json(Webhook, 'Created, with its signing secret'), ...errors(400, 401, 415, 422) },
});

const read = createRoute({
  method: 'get', path: '/webhooks/{webhook_id}', operationId: 'getWebhook', tags, security: SECURITY, summary: 'Read a webhook',
  request: { params: WebhookParams },
  responses: { 200: json(Webhook, 'The webhook'), ...errors(401, 404) },
});

const update = createRoute({
  method: 'put', path: '/webhooks/{webhook_id}', operationId: 'updateWebhook', tags, security: SECURITY, summary: 'Change a webhook’s url or events',
  request: { params: WebhookParams, body: { required: true, content: { 'application/json': { schema: WebhookUpdate } } } },
  responses: { 200: json(Webhook, 'Updated'), ...errors(400, 401, 404, 415, 422) },
});

const remove = createRoute({
  method: 'delete', path: '/webhooks/{webhook_id}', operationId: 'deleteWebhook', tags, security: SECURITY, summary: 'Delete a webhook',
  request: { params: WebhookParams },
  responses: { 200: json(Webhook, 'The deleted webhook'), ...errors(401, 404) },
});

/**
 * The webhook endpoints of SPEC 4.5.
 * @example
 * webhookRoutes(app, deps);
 */
export function webhookRoutes(app: App, deps: HttpDeps): void {
  const svc = deps.webhooks;
  app.openapi(list, (c) => c.json({ webhooks: svc.list(c.get('caller')) }, 200));
  app.openapi(create, (c) => c.json(svc.create(c.get('caller'), c.req.valid('json')), 201));
  app.openapi(read, (c) => c.json(svc.get(c.get('caller'), c.req.valid('param').webhook_id), 200));
  app.openapi(update, (c) => c.json(svc.update(c.get('caller'), c.req.valid('param').webhook_id, c.req.valid('json')), 200));
  app.openapi(remove, (c) => c.json(svc.delete(c.get('caller'), c.req.valid('param').webhook_id), 200));
}
