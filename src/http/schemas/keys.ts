import { z } from '@hono/zod-openapi';

export const KeyInfo = z
  .object({
    id: z.string(),
    name: z.string(),
    role: z.enum(['admin', 'user']),
    created_at: z.string(),
    last_used_at: z.string().nullable(),
  })
  .openapi('Key');

export const KeyCreated = KeyInfo.extend({ key: z.string().openapi({ description: 'The key itself; shown only in this response' }) }).openapi('KeyCreated');

export const KeyCreate = z
  .object({ name: z.string().min(1).max(100), role: z.enum(['admin', 'user']).optional().default('user') })
  .strict()
  .openapi('KeyCreate');

export const KeyParams = z.object({ key_id: z.string().min(1).max(100).openapi({ param: { name: 'key_id', in: 'path' } }) });
