import { OpenAPIHono } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { Problem } from '../services/errors.js';
import type { AppEnv, HttpDeps } from './env.js';
import { errorResponse } from './errors.js';
import { openApiConfig } from './openapi-config.js';
import { apiKeyAuth } from './middleware/auth/index.js';
import { hostCheck } from './middleware/host-check/index.js';
import { requestLog } from './middleware/request-log/index.js';
import { responseHeaders } from './middleware/response-headers/index.js';
import { strictJsonBodies } from './middleware/strict-json/index.js';
import { workerRequestLimit } from './middleware/worker-requests/index.js';
import { peopleRoutes } from './routes/people.js';
import { duplicateRoutes } from './routes/duplicates.js';
import { analysisRoutes } from './routes/analysis.js';
import { collectionRoutes } from './routes/collections.js';
import { docsRoutes } from './routes/docs.js';
import { fileRoutes } from './routes/files.js';
import { folderRoutes } from './routes/folders.js';
import { healthRoutes } from './routes/health.js';
import { itemRoutes } from './routes/items.js';
import { timelineRoutes } from './routes/timeline.js';
import { submissionRoutes } from './routes/submissions.js';
import { keyRoutes } from './routes/keys.js';
import { mcpRoutes } from './routes/mcp.js';
import { modelRoutes } from './routes/models.js';
import { shareRoutes } from './routes/shares.js';
import { searchRoutes } from './routes/search.js';
import { exploreRoutes } from './routes/explore.js';
import { askRoutes } from './routes/ask.js';
import { taskRoutes } from './routes/tasks.js';
import { webhookRoutes } from './routes/webhooks.js';
import { webRoutes } from './routes/web.js';
import { workerRoutes } from './routes/workers.js';
import { validationProblem } from './validation.js';
import { msg } from '../messages/index.js';

/** JSON and url-encoded bodies are small; multipart uploads have their own, larger limit in the form reader. */
function smallBodies(maxBytes: number): MiddlewareHandler {
  const limit = bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw new Problem('too_large', msg('body_too_large', { max: maxBytes }));
    },
  });
  return (c, next) => ((c.req.header('content-type') ?? '').startsWith('multipart/') ? next() : limit(c, next));
}

/**
 * Builds the whole HTTP API over the services; tests call `app.request()` on it without a socket.
 * @example
 * const app = createHttpApp(deps);
 * const res = await app.request('/health');
 */
export function createHttpApp(deps: HttpDeps): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) throw validationProblem(result.error.issues, result.target === 'json' || result.target === 'form' ? [] : []);
    },
  });
  app.onError(errorResponse(deps.log));
  app.notFound((c) => c.json({ detail: `no route for ${c.req.method} ${c.req.path}`, code: 'not_found', request_id: c.get('requestId') }, 404));
  app.use('*', responseHeaders());
  app.use('*', requestLog(deps.log));
  // Before anything is read or answered: a foreign Host learns nothing, not even that a key is missing.
  app.use('*', hostCheck(deps.hosts));
  app.use('*', smallBodies(deps.form.maxBodyBytes));
  app.use('*', apiKeyAuth(deps.keys));
  // Before any body is read: a worker key with too many requests in flight is refused at once.
  app.use('*', workerRequestLimit((keyId) => deps.jobs?.requestsAllowed(keyId) ?? 1));
  app.use('*', strictJsonBodies());

  healthRoutes(app, deps);
  keyRoutes(app, deps);
  collectionRoutes(app, deps);
  itemRoutes(app, deps);
  timelineRoutes(app, deps);
  folderRoutes(app, deps);
  analysisRoutes(app, deps);
  peopleRoutes(app, deps);
  duplicateRoutes(app, deps);
  taskRoutes(app, deps);
  webhookRoutes(app, deps);
  submissionRoutes(app, deps);
  searchRoutes(app, deps);
  exploreRoutes(app, deps);
  askRoutes(app, deps);
  modelRoutes(app, deps);
  shareRoutes(app, deps);
  workerRoutes(app, deps);
  mcpRoutes(app, deps);
  fileRoutes(app, deps);
  docsRoutes(app, deps);
  webRoutes(app, deps);

  app.openAPIRegistry.registerComponent('securitySchemes', 'ApiKey', { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'Also accepted as Authorization: Bearer <key>' });
  app.doc31('/openapi.json', openApiConfig(deps.version));
  return app;
}
