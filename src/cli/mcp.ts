import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { vidxApi, type VidxApi } from '../mcp/api.js';
import { createMcpServer } from '../mcp/server.js';
import { VERSION } from '../version.js';
import { EXIT, type Client } from './client.js';
import { clientFrom, parseFlags, runCommand } from './common.js';

const HELP = `Usage: vidx mcp [--url URL] [--key KEY]

Serves the Model Context Protocol on stdin/stdout for an AI agent that starts it as a command. Every tool
call goes to the running vidx at --url with --key, as the other commands do, so it sees what that key sees.
Tools: list_collections, search (words, a picture by image_path, or like a moment), get_analysis, get_transcript,
index_video, analyze_video, add_folder, get_task, suggest, people, reindex, duplicates;
resources: vidx://collections/{collection_id}/items/{media_id} (the transcript with times).
stdout carries only MCP messages; notes go to stderr. It ends when stdin closes.

Connection:
  --url URL     server to talk to (default $VIDX_URL, else http://$VIDX_HOST:$VIDX_PORT, i.e. http://127.0.0.1:8484)
  --key KEY     API key (default $VIDX_API_KEY, then $VIDX_ADMIN_KEY, then <data dir>/admin.key if readable)
  -h, --help    this help

A server that is down or a refused key does not stop it: each tool call then answers with the reason.`;

/**
 * The API over the network to the server, with the client's key; a server that cannot be reached becomes
 * an error saying so (the tool call reports it).
 * @example
 * const api = networkApi(clientFrom(values));
 */
export function networkApi(client: Client): VidxApi {
  return vidxApi({
    baseUrl: client.url,
    key: client.key,
    unreachable: (reason) => new Error(`cannot reach vidx at ${client.url} (${reason}): start it with \`vidx serve\`, or set --url / VIDX_URL`),
  });
}

/**
 * \`vidx mcp\`: an MCP server on stdio over the HTTP API of a running vidx; resolves when stdin closes.
 * @example
 * process.exitCode = await mcpCommand(['--url', 'http://127.0.0.1:8484']);
 */
export async function mcpCommand(argv: string[]): Promise<number> {
  return runCommand('mcp', HELP, argv, async () => {
    const { values } = parseFlags(argv, { url: { type: 'string' }, key: { type: 'string' }, help: { type: 'boolean', short: 'h', default: false } });
    const client = clientFrom(values);
    // The agent closing stdin ends tools that wait for a task too, so the process exits at once.
    const stopping = new AbortController();
    const server = createMcpServer(networkApi(client), VERSION, { stopping: stopping.signal });
    const closed = new Promise<void>((resolve) => {
      process.stdin.once('end', resolve);
      process.stdin.once('close', resolve);
    }).then(() => stopping.abort());
    await server.connect(new StdioServerTransport());
    process.stderr.write(`vidx mcp: serving MCP on stdio for ${client.url} (key from ${client.keySource})\n`);
    await closed;
    await server.close();
    return EXIT.OK;
  });
}
