import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexFixtures } from '../search/fixtures.js';
import { fakeAnalyze } from '../support/fake-tasks.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { mcpClient, textOf, type Transport } from './clients.js';

/** The one tool that answers plain text (timed transcript lines), so it has no outputSchema. */
const TEXT_TOOLS = ['get_transcript'];

/** The rejection of a promise, to assert on its fields. */
async function rejection(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => expect.fail('expected a refusal'),
    (err: unknown) => err,
  );
}

describe('MCP protocol details: resource not found, strict inputs, output schemas, capabilities, 401 challenge', () => {
  let s: TestServer;
  let alice: string;
  let bob: string;
  let file: string;
  const fake = fakeAnalyze();

  beforeAll(async () => {
    s = await startTestServer({ queryEmbedder: null, registerTasks: fake.register });
    alice = await s.newKey();
    bob = await s.newKey();
    expect((await s.call('POST', '/collections', { key: alice, json: { collection_id: 'demo', name: 'demo' } })).status).toBe(201);
    indexFixtures(s.vidx, s.dataDir, 'demo');
    file = join(s.mediaDir, 'clip.mp4');
    writeFileSync(file, 'pretend video');
  });
  afterAll(() => s.close());

  describe.each(['http', 'stdio'] as Transport[])('over %s', (transport) => {
    let client: Client;
    let tools: Tool[];
    beforeAll(async () => {
      client = await mcpClient(transport, s.url, alice);
      // Listing caches each tool's outputSchema in the client, which then validates every structuredContent.
      ({ tools } = await client.listTools());
    });
    afterAll(() => client?.close());

    it('advertises no listChanged: vidx never changes its lists, and stateless HTTP could not say so', () => {
      const caps = client.getServerCapabilities()!;
      expect(caps.tools).toBeDefined();
      expect(caps.resources).toBeDefined();
      expect(caps.tools!.listChanged).toBeFalsy();
      expect(caps.resources!.listChanged).toBeFalsy();
    });

    it('answers an unknown resource with -32002 and its URI', async () => {
      for (const uri of ['vidx://collections/demo/items/nope', 'vidx://collections/elsewhere/items/cup-final', 'vidx://collections/demo/items/not.an.id', 'vidx://collections/demo/items/%E0']) {
        const err = await rejection(client.readResource({ uri }));
        expect(err, uri).toBeInstanceOf(McpError);
        expect(err, uri).toMatchObject({ code: -32002, data: { uri } });
      }
      // A URI no template of vidx matches is the SDK's invalid params.
      expect(await rejection(client.readResource({ uri: 'vidx://elsewhere/x' }))).toMatchObject({ code: -32602 });
      // Another owner's item is not found, as over HTTP.
      const other = await mcpClient(transport, s.url, bob);
      try {
        const err = await rejection(other.readResource({ uri: 'vidx://collections/demo/items/cup-final' }));
        expect(err).toMatchObject({ code: -32002, data: { uri: 'vidx://collections/demo/items/cup-final' } });
        expect((err as Error).message).toMatch(/not found/);
      } finally {
        await other.close();
      }
    });

    it('forbids unknown arguments in every input schema and refuses one naming it', async () => {
      for (const t of tools) expect(t.inputSchema, t.name).toMatchObject({ type: 'object', additionalProperties: false });
      const r = await client.callTool({ name: 'search', arguments: { query: 'penalty', collection: 'demo', colection: 'demo' } });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/Unrecognized key: "colection"/);
      const two = await client.callTool({ name: 'list_collections', arguments: { public: false, owner: 'x', page: 2 } });
      expect(two.isError).toBe(true);
      expect(textOf(two)).toMatch(/"owner".*"page"/);
    });

    it('declares an outputSchema on every tool that answers JSON, and its structuredContent matches it and the text', async () => {
      for (const t of tools) {
        if (TEXT_TOOLS.includes(t.name)) expect(t.outputSchema, t.name).toBeUndefined();
        else expect(t.outputSchema, t.name).toMatchObject({ type: 'object' });
      }
      const ajv = new AjvJsonSchemaValidator();
      const byName = new Map(tools.map((t) => [t.name, t]));
      const queued = await client.callTool({ name: 'analyze_video', arguments: { path: file, title: 'ok' } });
      const taskId = (queued.structuredContent as { task_id: string }).task_id;
      const calls: Array<[string, Record<string, unknown>]> = [
        ['list_collections', {}],
        ['search', { query: 'penalty shot', collection: 'demo' }],
        ['search', { query: 'xylophone zebra', collection: 'demo' }],
        ['get_analysis', { collection: 'demo', media_id: 'cup-final' }],
        ['get_task', { task_id: taskId, wait_seconds: 30 }],
        ['suggest', { collection: 'demo' }],
        ['duplicates', { collection: 'demo' }],
      ];
      for (const [name, args] of [['analyze_video', {}] as const, ...calls]) {
        // The SDK client has already checked structuredContent against the listed schema (callTool throws otherwise); check it here as well.
        const r = name === 'analyze_video' ? queued : await client.callTool({ name, arguments: args });
        expect(r.isError, `${name}: ${textOf(r)}`).toBeFalsy();
        expect(r.structuredContent, name).toBeDefined();
        expect(JSON.parse(textOf(r)), name).toEqual(r.structuredContent);
        const check = ajv.getValidator(byName.get(name)!.outputSchema!)(r.structuredContent);
        expect(check.errorMessage, name).toBeUndefined();
      }
      const transcript = await client.callTool({ name: 'get_transcript', arguments: { collection: 'demo', media_id: 'cup-final' } });
      expect(transcript.structuredContent).toBeUndefined();
      expect(textOf(transcript)).toContain('penalty shot');
    });

    it('keeps a tool error a plain text result with no structuredContent', async () => {
      const r = await client.callTool({ name: 'people', arguments: { collection: 'demo' } });
      expect(r.isError).toBe(true);
      expect(r.structuredContent).toBeUndefined();
      expect(textOf(r)).toMatch(/faces turned off/);
    });
  });

  it('answers every 401 with a WWW-Authenticate challenge', async () => {
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } } };
    const tries: Array<Record<string, string>> = [{}, { authorization: 'Bearer vidx_wrong' }, { 'x-api-key': 'vidx_wrong' }];
    for (const headers of tries) {
      const r = await fetch(`${s.url}/mcp`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify(init),
      });
      expect(r.status).toBe(401);
      expect(r.headers.get('www-authenticate')).toBe('Bearer realm="vidx"');
      expect((await r.json()).code).toBe('unauthorized');
    }
    const rest = await s.call('GET', '/collections', { key: null });
    expect(rest.status).toBe(401);
    expect(rest.headers.get('www-authenticate')).toBe('Bearer realm="vidx"');
    // Answers that are not 401 carry no challenge.
    expect((await s.call('GET', '/collections', { key: alice })).headers.get('www-authenticate')).toBeNull();
  });
});
