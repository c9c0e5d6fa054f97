import { createRoute, z } from '@hono/zod-openapi';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Context } from 'hono';
import { vidxApi } from '../../mcp/api.js';
import { createMcpServer } from '../../mcp/server.js';
import type { AppEnv, App, HttpDeps } from '../env.js';
import { requestKey } from '../middleware/auth/index.js';
import { errors, SECURITY } from '../schemas/common.js';

/** A JSON-RPC 2.0 error object (what the MCP transport answers when it refuses a message). */
const JsonRpcError = z
  .object({
    jsonrpc: z.literal('2.0'),
    error: z.object({
      code: z.number().int().openapi({ description: '-32700 parse error, -32600 invalid request, -32601 method not found, -32602 invalid params, -32603 internal error, -32002 resource not found (data.uri names it), -32000 transport-level refusal' }),
      message: z.string(),
      data: z.unknown().optional(),
    }),
    id: z.union([z.string(), z.number(), z.null()]).openapi({ description: 'The request id, null when it could not be read' }),
  })
  .openapi('JsonRpcError', { description: 'A JSON-RPC 2.0 error response' });

const JsonRpcMessage = z
  .object({
    jsonrpc: z.literal('2.0'),
    id: z.union([z.string(), z.number()]).optional().openapi({ description: 'Absent in notifications' }),
    method: z.string().openapi({ example: 'tools/list' }),
    params: z.record(z.string(), z.unknown()).optional(),
  })
  .passthrough()
  .openapi('JsonRpcMessage', { description: 'A JSON-RPC 2.0 request or notification (MCP)' });

const rpcError = (description: string) => ({ description, content: { 'application/json': { schema: JsonRpcError } } });

const mcpRoute = createRoute({
  method: 'post', path: '/mcp', operationId: 'postMcp', tags: ['mcp'], security: SECURITY,
  summary: 'vidx extra: Model Context Protocol (Streamable HTTP, stateless) for AI agents',
  description:
    'One JSON-RPC message per POST (MCP Streamable HTTP transport, no sessions; GET and DELETE answer 405). ' +
    'The key goes in x-api-key or Authorization: Bearer. Tools: list_collections, search, get_analysis, get_transcript, index_video, analyze_video, add_folder, get_task, suggest, people, reindex, duplicates; ' +
    'resources vidx://collections/{collection_id}/items/{media_id}. Each tool calls this API with the same key, so visibility and error reasons are the same. ' +
    'Errors the MCP transport answers are JSON-RPC error objects; a missing key (401, with WWW-Authenticate: Bearer realm="vidx") and an oversized body (413) are refused by vidx before MCP sees the request and have the REST error shape.',
  request: { body: { required: true, content: { 'application/json': { schema: JsonRpcMessage } } } },
  responses: {
    200: {
      description: 'The JSON-RPC answer (result, or a JSON-RPC error such as -32601 method not found) as a server-sent event stream, with progress notifications while a tool waits for a task (Accept must name application/json and text/event-stream)',
      content: { 'text/event-stream': { schema: z.string().openapi({ description: 'SSE: `event: message` lines whose `data:` is one JSON-RPC message' }) } },
    },
    202: { description: 'A notification or response from the client was accepted (no body)' },
    400: rpcError('Not JSON (-32700) or not a JSON-RPC message'),
    ...errors(401),
    406: rpcError('Accept does not name both application/json and text/event-stream (-32000)'),
    ...errors(413),
    415: rpcError('Content-Type is not application/json (-32000)'),
  },
});

/** The Accept-Language an inner request carries: the /mcp request's, when it sent one. */
function readerHeader(value: string | undefined): Record<string, string> {
  return value ? { 'accept-language': value } : {};
}

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
    const api = vidxApi({
      // In-process: the app answers the request itself; the host is only there to make a URL.
      baseUrl: 'http://localhost',
      fetch: async (request) => app.request(request),
      key,
      // The inner requests log under the /mcp request's id, so one tool call can be traced; they answer in
      // the language the MCP client asked for (task warnings, errors), as the HTTP API would.
      headers: { 'x-request-id': requestId, ...readerHeader(c.req.header('accept-language')) },
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
