/**
 * The vidx MCP server: the tools of tools/index.ts and the item resources over one VidxApi. Both
 * transports build it the same way; only how the API is reached differs.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { VidxApi } from './api.js';
import { registerItemResources } from './resources.js';
import { toolResult } from './tool.js';
import { TOOLS } from './tools/index.js';

const INSTRUCTIONS = `vidx indexes the user's own videos on this machine: what is said (transcripts) and what is shown (on-screen text, scenes).
Start with list_collections, then search a collection to find moments (each has a start_time and a link that plays from there):
by words, by a picture on the vidx machine (image_path, inside its media roots; the server reads it), or like a moment found before (like).
Use get_transcript / get_analysis for context around a moment, index_video to add a video, get_task to follow indexing,
people for the people seen in a collection (faces grouped on this machine) and one person's moments,
duplicates for the copies in a collection and which one to keep,
reindex to analyse a collection's videos again after faces were turned on or a model was installed.`;

/**
 * A new MCP server over `api`; connect it to a transport.
 * @example
 * await createMcpServer(api, VERSION).connect(new StdioServerTransport());
 */
export function createMcpServer(api: VidxApi, version: string, opts: { stopping?: AbortSignal } = {}): McpServer {
  const server = new McpServer({ name: 'vidx', title: 'vidx: local video search', version }, { instructions: INSTRUCTIONS });
  for (const tool of TOOLS) {
    // Strict, as the HTTP API is: an unknown argument is refused naming it (JSON schema additionalProperties: false).
    const inputSchema = z.object(tool.input).strict();
    const outputSchema = tool.output ? z.object(tool.output) : undefined;
    server.registerTool(
      tool.name,
      { title: tool.title, description: tool.description, inputSchema, outputSchema, annotations: tool.annotations },
      // Errors thrown here (an ApiFailure with the API's reason, a bad combination of arguments) become tool errors.
      async (args: unknown, extra) => toolResult(await tool.run(args as never, { api, extra, stopping: opts.stopping })),
    );
  }
  registerItemResources(server, api);
  // The tools and resources are fixed once registered, so no list ever changes: the SDK's default
  // `listChanged: true` would promise notifications vidx never sends (and stateless /mcp could not send).
  server.server.registerCapabilities({ tools: { listChanged: false }, resources: { listChanged: false } });
  return server;
}
