import { z } from '@hono/zod-openapi';
import { HttpUrl } from './common.js';

const Event = z.enum(['task.completed', 'task.failed', 'task.started']);

export const Webhook = z
  .object({
    id: z.string(),
    url: z.string(),
    events: z.array(Event),
    created_at: z.string(),
    updated_at: z.string(),
    secret: z.string().optional().openapi({ description: 'Only in the create response: the HMAC key of x-vidx-signature' }),
  })
  .openapi('Webhook');

export const WebhookCreate = z
  .object({ url: HttpUrl, events: z.array(Event).nullable().optional() })
  .strict()
  .openapi('WebhookCreate');

export const WebhookUpdate = z
  .object({ url: HttpUrl.nullable().optional(), events: z.array(Event).nullable().optional() })
  .strict()
  .openapi('WebhookUpdate');

export const WebhookParams = z.object({ webhook_id: z.string().min(1).max(100).openapi({ param: { name: 'webhook_id', in: 'path' } }) });
