import { createRoute, type z } from '@hono/zod-openapi';
import { basename } from 'node:path';
import type { Context } from 'hono';
import type { AppEnv, App, HttpDeps } from '../env.js';
import { readFormBody, removeUploads, type Upload } from '../middleware/form-body/index.js';
import { errors, SECURITY } from '../schemas/common.js';
import { AnalyzeBody, formEnvelope, IndexBody } from '../schemas/submissions.js';
import { TaskCreated } from '../schemas/tasks.js';
import type { TaskUpload, VideoInput } from '../../services/submissions.js';

const created = { 202: { description: 'Queued; poll GET /tasks/{task_id}', content: { 'application/json': { schema: TaskCreated } } } };

const indexRoute = createRoute({
  method: 'post', path: '/index', operationId: 'indexMedia', tags: ['indexing'], security: SECURITY, summary: 'Index a video into a collection (a task)',
  request: { body: { required: true, content: formEnvelope(IndexBody, { uploads: true }) } },
  responses: { ...created, ...errors(400, 401, 403, 404, 413, 415, 422) },
});

const analyzeRoute = createRoute({
  method: 'post', path: '/analyze', operationId: 'analyzeMedia', tags: ['indexing'], security: SECURITY, summary: 'Analyze a video without indexing it (a task)',
  request: { body: { required: true, content: formEnvelope(AnalyzeBody, { uploads: true }) } },
  responses: { ...created, ...errors(400, 401, 413, 415, 422) },
});

/** The one file part a job body may bring: the one `video.content` names. */
function namedUpload(body: unknown): string[] {
  const content = (body as { video?: { content?: unknown } } | null)?.video?.content;
  return typeof content === 'string' ? [content] : [];
}

/** The upload `video.content` names (by file name or part name); the others are deleted. */
function takeUpload(uploads: Upload[], content: string | null | undefined): TaskUpload | null {
  const chosen = content ? (uploads.find((u) => u.filename === content) ?? uploads.find((u) => u.field === content)) : undefined;
  removeUploads(uploads.filter((u) => u !== chosen));
  return chosen ? { stored: basename(chosen.path), filename: chosen.filename, size: chosen.size } : null;
}

/**
 * POST /index and POST /analyze: the form convention, validation, and a queued task.
 * @example
 * submissionRoutes(app, deps);
 */
export function submissionRoutes(app: App, deps: HttpDeps): void {
  // Registered for the document only (see below).
  app.openAPIRegistry.registerPath(indexRoute);
  app.openAPIRegistry.registerPath(analyzeRoute);

  // The handlers read the body themselves so uploads stream to disk; the task takes over the named upload.
  const queue = <T extends { video: VideoInput }>(schema: z.ZodType<T>, create: (c: Context<AppEnv>, value: T, upload: TaskUpload | null) => Promise<{ id: string }>) =>
    async (c: Context<AppEnv>) => {
      const { value, uploads } = await readFormBody(c, schema, deps.form, namedUpload);
      const upload = takeUpload(uploads, value.video.content);
      try {
        const task = await create(c, value, upload);
        return c.json({ task_id: task.id }, 202);
      } catch (err) {
        if (upload) deps.submissions.discardUpload(upload);
        throw err;
      }
    };
  app.post('/index', queue(IndexBody, (c, value, upload) => deps.submissions.index(c.get('caller'), value, upload)));
  app.post('/analyze', queue(AnalyzeBody, (c, value, upload) => deps.submissions.analyze(c.get('caller'), value, upload)));
}
