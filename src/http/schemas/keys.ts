import { z } from '@hono/zod-openapi';
import { WorkerId } from './workers.js';

/** What a key may do: everything (admin), its own collections and tasks (user), or only the job endpoints of `vidx worker` (worker). */
export const KeyRoleSchema = z.enum(['admin', 'user', 'worker']).openapi({
  description: 'admin: everything; user: its own collections and tasks; worker: only the job endpoints under /worker (every other path answers 403)',
});

export const KeyInfo = z
  .object({
    id: z.string(),
    name: z.string(),
    role: KeyRoleSchema,
    created_at: z.string(),
    last_used_at: z.string().nullable(),
    worker_id: z.string().nullable().openapi({ description: 'A worker key’s worker id: fixed when the key was made, else by its first heartbeat (null until then, and for other keys)' }),
    max_concurrency: z.number().int().nullable().openapi({ description: 'The most jobs at once a worker key may announce (default 8); null for other keys' }),
  })
  .openapi('Key');

export const KeyCreated = KeyInfo.extend({ key: z.string().openapi({ description: 'The key itself; shown only in this response' }) }).openapi('KeyCreated');

export const KeyCreate = z
  .object({
    name: z.string().min(1).max(100),
    role: KeyRoleSchema.optional().default('user'),
    worker_id: WorkerId.optional().openapi({ description: 'Worker keys only: the one worker id this key may heartbeat as (else its first heartbeat fixes it)' }),
    max_concurrency: z.number().int().min(1).max(64).optional().openapi({ description: 'Worker keys only: the most jobs at once its worker may announce (default 8)' }),
  })
  .strict()
  .openapi('KeyCreate');

export const KeyParams = z.object({ key_id: z.string().min(1).max(100).openapi({ param: { name: 'key_id', in: 'path' } }) });
