import { createRoute, z } from '@hono/zod-openapi';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Context } from 'hono';
import { vidxApi } from '../../mcp/api.js';
import { createMcpServer } from '../../mcp/server.js';
import type { AppEnv, App, HttpDeps } from '../env.js';
import { requestKey } from '../middleware/auth/index.js';
import { errors, SECURITY } from '../schemas/common.js';

const mcpRoute = createRoute({
  method: 'post', path: '/mcp', tags: ['mcp'], security: SECURITY,
  summary: 'vidx extra: Model Context Protocol (Streamable HTTP, stateless) for AI agents',
  description:
    'One JSON-RPC message per POST (MCP Streamable HTTP transport, no sessions; GET and DELETE answer 405). ' +
    'The key goes in x-api-key or Authorization: Bearer. Tools: list_collections, search, get_analysis, get_transcript, index_video, analyze_video, get_task, suggest; ' +
    'resources vidx://collections/{collection_id}/items/{media_id}. Each tool calls this API with the same key, so visibility and error reasons are the same.',
  request: { body: { required: true, content: { 'application/json': { schema: z.object({ jsonrpc: z.literal('2.0'), method: z.string() }).passthrough() } } } },
  responses: {
    200: {
      description: 'The JSON-RPC answer as an SSE stream, with progress notifications while a tool waits for a task (Accept must name application/json and text/event-stream)',
      content: { 'text/event-stream': { schema: z.string() } },
    },
    202: { description: 'A notification or response from the client was accepted' },
    ...errors(400, 401, 406, 413, 415),
  },
});

/**
 * POST /mcp: the MCP server of src/mcp over the Streamable HTTP transport. A fresh stateless server per
 * request; its tools call this same app in-process with the caller's key, so ownership rules, validation
 * and error messages are the HTTP API's own.
 * @example
 * mcpRoutes(app, deps);
 */
export function mcpRoutes(app: App, deps: HttpDeps): void {
  app.openAPIRegistry.registerPath(mcpRoute);

  app.post('/mcp', async (c: Context<AppEnv>) => {
    // The auth middleware has already accepted this key.
    const key = requestKey((name) => c.req.header(name)) ?? '';
    const requestId = c.get('requestId');
    const api = vidxApi((path, init) => {
      const headers = new Headers(init.headers);
      headers.set('x-api-key', key);
      // The inner requests log under the /mcp request's id, so one tool call can be traced.
      headers.set('x-request-id', requestId);
      return Promise.resolve(app.request(path, { ...init, headers }));
    });
    const server = createMcpServer(api, deps.version, { stopping: deps.stopping });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    await server.connect(transport);
    return transport.handleRequest(c.req.raw);
  });

  // Stateless: no session to open a server-to-client stream on, or to end.
  app.on(['GET', 'DELETE'], '/mcp', (c: Context<AppEnv>) => {
    c.header('allow', 'POST');
    return c.json({ detail: `${c.req.method} /mcp is not supported: vidx serves MCP statelessly, one POST per message`, code: 'method_not_allowed', request_id: c.get('requestId') }, 405);
  });
}
