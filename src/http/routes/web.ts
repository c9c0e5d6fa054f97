import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { App, AppEnv, HttpDeps } from '../env.js';
import { PUBLIC } from '../schemas/common.js';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.svg': 'image/svg+xml',
  '.png': 'image/png', '.woff2': 'font/woff2', '.json': 'application/json',
};

/** Built file names are letters, digits, `-`, `_` and dots (Vite's `name-hash.ext`): nothing else is looked up. */
const ASSET = /^\/assets\/([A-Za-z0-9_-][A-Za-z0-9._-]{0,200})$/;

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>vidx</title></head><body>
<h1>vidx</h1><p>The web page is not built. Run <code>npm run build:web</code> (or <code>npm start</code>, which builds it) and reload.
The API is here as always; its reference is at <a href="/docs">/docs</a>.</p></body></html>`;

/**
 * The page's own scripts and styles only; pictures and media also from the signed-link origin (which may be
 * VIDX_PUBLIC_URL rather than the address in the address bar). No inline code, no other host. (nosniff is
 * on every answer: middleware/response-headers.)
 */
function securityHeaders(linkOrigin: string): Record<string, string> {
  const media = ["'self'", linkOrigin, 'blob:'].filter(Boolean).join(' ');
  return {
    'content-security-policy': [
      "default-src 'none'", "script-src 'self'", "style-src 'self'", `img-src ${media} data:`, `media-src ${media}`,
      "connect-src 'self'", "font-src 'self'", "manifest-src 'self'", "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
    ].join('; '),
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
  };
}

const pageRoute = createRoute({
  method: 'get', path: '/', operationId: 'getWebPage', tags: ['web'], security: PUBLIC,
  summary: 'The web page (also at /index.html; its files under /assets/); no key needed to load it, it asks for one',
  responses: {
    200: { description: 'The page', content: { 'text/html': { schema: z.string() } } },
    503: { description: 'The page was never built (npm run build:web)', content: { 'text/html': { schema: z.string() } } },
  },
});

async function readOrNull(file: string): Promise<Buffer | null> {
  try {
    return await readFile(file);
  } catch {
    return null;
  }
}

/**
 * GET / and GET /assets/*: the web page (built by `npm run build:web` into dist/web, embedded in the binary),
 * served without a key; the page asks for the key and sends it only to this server. Hashed assets are
 * cached for a year, index.html is revalidated on each load.
 * @example
 * webRoutes(app, deps); // open http://127.0.0.1:8484/
 */
export function webRoutes(app: App, deps: HttpDeps): void {
  const page = async (c: Context<AppEnv>) => {
    const html = deps.webDir ? await readOrNull(join(deps.webDir, 'index.html')) : null;
    const headers = { ...securityHeaders(deps.links.origin()), 'cache-control': 'no-cache', 'content-type': 'text/html; charset=utf-8' };
    if (!html) return c.body(NOT_BUILT, 503, headers);
    return c.body(new Uint8Array(html), 200, headers);
  };
  app.openAPIRegistry.registerPath(pageRoute);
  app.get('/', page);
  app.get('/index.html', page);
  app.get('/assets/*', async (c) => {
    const name = ASSET.exec(c.req.path)?.[1];
    const body = name && deps.webDir ? await readOrNull(join(deps.webDir, 'assets', name)) : null;
    if (!name || !body) return c.json({ detail: `no such file: ${c.req.path}`, code: 'not_found', request_id: c.get('requestId') }, 404);
    return c.body(new Uint8Array(body), 200, {
      'content-type': TYPES[extname(name)] ?? 'application/octet-stream',
      'cache-control': 'public, max-age=31536000, immutable',
    });
  });
}
