import type { OpenAPIObjectConfigure } from '@hono/zod-openapi';
import type { AppEnv } from './env.js';
import { SECURITY } from './schemas/common.js';

/** What each tag groups, shown as section headings in /docs. */
const TAGS = [
  { name: 'system', description: 'Health, this document and its rendered reference (no key needed)' },
  { name: 'keys', description: 'API keys (admin) and the calling key' },
  { name: 'collections', description: 'Collections of media items (SPEC 4.3)' },
  { name: 'items', description: 'Media items of a collection and their stored analysis' },
  { name: 'time', description: 'The archive by time: events (a day, a trip), what was recorded on this day in earlier years, the timeline by year and month' },
  { name: 'folders', description: 'vidx extra: folders bound to a collection, scanned and watched' },
  { name: 'people', description: 'vidx extra: faces and the people they group into' },
  { name: 'indexing', description: 'POST /index and POST /analyze: queued tasks' },
  { name: 'tasks', description: 'Queued, running and finished work (SPEC 4.4)' },
  { name: 'webhooks', description: 'Signed notifications about your tasks (SPEC 4.5)' },
  { name: 'search', description: 'Search, clustered search and suggestions' },
  { name: 'mcp', description: 'vidx extra: the Model Context Protocol endpoint for AI agents' },
  { name: 'files', description: 'Signed links to thumbnails and stored media' },
  { name: 'web', description: 'The web page' },
];

/**
 * The top of GET /openapi.json. `servers` names the address the request came to (its Host header), so
 * /docs try-it stays on the page's own origin (its CSP allows nothing else) and a client generated from the
 * document talks to the server it was fetched from. Every operation needs the key unless it says
 * `security: []`.
 * @example
 * app.doc31('/openapi.json', openApiConfig(deps.version));
 */
export function openApiConfig(version: string): OpenAPIObjectConfigure<AppEnv, '/openapi.json'> {
  return (c) => ({
    openapi: '3.1.0',
    info: {
      title: 'vidx',
      version,
      description: 'Local, offline video indexing, search and analysis. Errors are `{detail, code, errors?, request_id}`.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: new URL(c.req.url).origin, description: 'This vidx server (the address this document was fetched from)' }],
    security: SECURITY,
    tags: TAGS,
  });
}
