import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const BIN = fileURLToPath(new URL('../../bin/vidx.js', import.meta.url));

/** How a test reaches vidx's MCP server. */
export type Transport = 'http' | 'stdio';

/**
 * An MCP client (the SDK's own) connected the way an agent would connect: over HTTP to `<url>/mcp` with
 * the key as a Bearer token, or by starting `vidx mcp` (bin/vidx.js, as `npx vidx mcp` does) with the URL
 * and key in its environment.
 * @example
 * const client = await mcpClient('stdio', s.url, key);
 * const { tools } = await client.listTools();
 */
export async function mcpClient(transport: Transport, url: string, key: string): Promise<Client> {
  const client = new Client({ name: 'vidx-test-agent', version: '1.0.0' });
  if (transport === 'http') {
    await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
  } else {
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN, 'mcp'],
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', VIDX_URL: url, VIDX_API_KEY: key },
        stderr: 'ignore',
      }),
    );
  }
  return client;
}

/** The text of a tool result's first content part. */
export function textOf(result: unknown): string {
  const content = (result as { content?: Array<{ type: string; text?: string }> }).content ?? [];
  return content.find((c) => c.type === 'text')?.text ?? '';
}

/**
 * Calls a tool and parses its JSON text; fails the test with the text when the tool reported an error, or
 * when its structuredContent (which the SDK client checks against the listed outputSchema) is not that JSON.
 * @example
 * const { moments } = await callJson(client, 'search', { query: 'penalty', collection: 'demo' });
 */
// `any` on purpose: tests assert on fields of the answer directly, and a wrong guess fails the assertion.
export async function callJson(client: Client, name: string, args: Record<string, unknown>): Promise<any> {
  const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 });
  if (r.isError) throw new Error(`${name} failed: ${textOf(r)}`);
  const parsed = JSON.parse(textOf(r));
  if (JSON.stringify(r.structuredContent) !== JSON.stringify(parsed)) throw new Error(`${name}: structuredContent differs from the JSON text`);
  return parsed;
}
