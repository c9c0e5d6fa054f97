import { join } from 'node:path';
import { createRoute, z } from '@hono/zod-openapi';
import { DOCS_INIT, DOCS_PAGE, docsSecurityHeaders } from '../docs/page.js';
import { RENDERER_FILES, RENDERER_PACKAGE_DIR, rendererFiles } from '../docs/renderer.js';
import type { App, HttpDeps } from '../env.js';
import { PUBLIC } from '../schemas/common.js';

const docsRoute = createRoute({
  method: 'get', path: '/docs', operationId: 'getApiDocs', tags: ['system'], security: PUBLIC,
  summary: 'This API reference, with try-it (Swagger UI served by vidx itself; no key needed to open it)',
  responses: { 200: { description: 'The page', content: { 'text/html': { schema: z.string() } } } },
});

const documentRoute = createRoute({
  method: 'get', path: '/openapi.json', operationId: 'getOpenApiDocument', tags: ['system'], security: PUBLIC,
  summary: 'This API document (OpenAPI 3.1; no key needed)',
  description: 'Its `servers` entry is the address the document was fetched from, so try-it and generated clients talk to this server.',
  responses: {
    200: { description: 'The document', content: { 'application/json': { schema: z.record(z.string(), z.unknown()).openapi({ description: 'An OpenAPI 3.1 document' }) } } },
  },
});

const NAME = /^[a-z0-9-]+\.[a-z0-9.]+$/;

/**
 * GET /docs (Swagger UI with try-it) and its files under /docs/assets/, served without a key and without
 * any CDN: the renderer comes from dist/web/docs (embedded in the binary) or node_modules.
 * @example
 * docsRoutes(app, deps); // open http://127.0.0.1:8484/docs
 */
export function docsRoutes(app: App, deps: Pick<HttpDeps, 'webDir'>): void {
  app.openAPIRegistry.registerPath(docsRoute);
  // Served by app.doc31 in app.ts; registered here so the document lists it too.
  app.openAPIRegistry.registerPath(documentRoute);
  const files = rendererFiles([...(deps.webDir ? [join(deps.webDir, 'docs')] : []), RENDERER_PACKAGE_DIR]);
  const headers = docsSecurityHeaders();

  app.get('/docs', (c) => c.html(DOCS_PAGE, 200, { ...headers, 'cache-control': 'no-cache' }));
  app.get('/docs/assets/:name', async (c) => {
    const name = c.req.param('name');
    // The settings are vidx's own; they change with vidx, so they are revalidated rather than cached for long.
    if (name === 'init.js') return c.body(DOCS_INIT, 200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' });
    const body = NAME.test(name) ? await files.get(name) : null;
    if (!body) return c.json({ detail: `no such file: ${c.req.path}`, code: 'not_found', request_id: c.get('requestId') }, 404);
    return c.body(new Uint8Array(body), 200, {
      'content-type': RENDERER_FILES[name] ?? 'application/octet-stream',
      // Names carry no version: a day, then the browser asks again (an upgrade of vidx shows within a day).
      'cache-control': 'public, max-age=86400',
      'x-content-type-options': 'nosniff',
    });
  });
}
