import { z } from '@hono/zod-openapi';

const Status = z.enum(['queued', 'running', 'completed', 'failed']);

export const Task = z
  .object({
    id: z.string(),
    task_id: z.string().openapi({ description: 'Same as id' }),
    endpoint: z.string().openapi({ example: '/index' }),
    status: Status,
    data: z.unknown().openapi({ description: 'The task input' }),
    progress: z.number().min(0).max(1),
    stage: z.string().nullable(),
    result: z.unknown().openapi({ description: 'Output once completed; null otherwise' }),
    error: z.string().nullable().openapi({ description: 'Why it failed' }),
    attempts: z.number().int(),
    created_at: z.string(),
    updated_at: z.string(),
    started_at: z.string().nullable(),
    finished_at: z.string().nullable(),
  })
  .openapi('Task');

export const TaskListQuery = z.object({
  status: Status.optional(),
  endpoint: z.string().max(200).optional().openapi({ description: 'The endpoint the task came from, with or without its slash: /analyze or analyze' }),
  limit: z.coerce.number().int().min(1).max(100).optional().default(20).openapi({ type: 'integer', default: 20 }),
  offset: z.coerce.number().int().min(0).optional().default(0).openapi({ type: 'integer', default: 0 }),
});

export const TaskList = z.object({ tasks: z.array(Task), total: z.number().int(), limit: z.number().int(), offset: z.number().int() }).openapi('TaskList');

export const TaskCounts = z
  .object({ queued: z.number().int(), running: z.number().int(), completed: z.number().int(), failed: z.number().int(), total: z.number().int() })
  .openapi('TaskCounts');

export const TaskParams = z.object({ task_id: z.string().min(1).max(100).openapi({ param: { name: 'task_id', in: 'path' } }) });

export const TaskCreated = z.object({ task_id: z.string() }).openapi('TaskCreated');
