import { z } from '@hono/zod-openapi';

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
  })
  .openapi('Key');

export const KeyCreated = KeyInfo.extend({ key: z.string().openapi({ description: 'The key itself; shown only in this response' }) }).openapi('KeyCreated');

export const KeyCreate = z
  .object({ name: z.string().min(1).max(100), role: KeyRoleSchema.optional().default('user') })
  .strict()
  .openapi('KeyCreate');

export const KeyParams = z.object({ key_id: z.string().min(1).max(100).openapi({ param: { name: 'key_id', in: 'path' } }) });
