import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureCorpus, type CorpusManifest } from '../support/corpus.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { indexFixtures } from '../search/fixtures.js';
import { callJson, mcpClient, textOf, type Transport } from './clients.js';
import { textClip } from '../security/media.js';

const TOOLS = ['add_folder', 'analyze_video', 'ask', 'duplicates', 'get_analysis', 'get_task', 'get_transcript', 'index_video', 'list_collections', 'people', 'reindex', 'search', 'suggest'];

describe('MCP server (tools, resources, errors) over both transports', () => {
  let s: TestServer;
  let corpus: CorpusManifest;
  let alice: string;
  let bob: string;
  let folderRoot: string;

  beforeAll(async () => {
    corpus = await ensureCorpus();
    folderRoot = mkdtempSync(join(tmpdir(), 'vidx-mcp-folder-'));
    await textClip(join(folderRoot, 'http', 'harbour.mp4'), 'HARBOUR');
    await textClip(join(folderRoot, 'stdio', 'harbour.mp4'), 'HARBOUR');
    s = await startTestServer({ queryEmbedder: null, env: { VIDX_MEDIA_ROOTS: `${dirname(corpus.slides.path)}:${folderRoot}` } });
    alice = await s.newKey();
    bob = await s.newKey();
    for (const id of ['demo', 'home-http', 'home-stdio']) {
      expect((await s.call('POST', '/collections', { key: alice, json: { collection_id: id, name: id } })).status).toBe(201);
    }
    indexFixtures(s.vidx, s.dataDir, 'demo');
  });
  afterAll(() => s.close());

  describe.each(['http', 'stdio'] as Transport[])('over %s', (transport) => {
    let client: Client;
    beforeAll(async () => {
      client = await mcpClient(transport, s.url, alice);
    });
    afterAll(() => client?.close());

    it('lists the tools, each with a description and a JSON schema', async () => {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(TOOLS);
      for (const t of tools) {
        expect(t.description!.length, t.name).toBeGreaterThan(60);
        expect(t.inputSchema.type).toBe('object');
      }
      const search = tools.find((t) => t.name === 'search')!;
      expect(Object.keys(search.inputSchema.properties ?? {}).sort()).toEqual(
        ['captured_after', 'captured_before', 'collection', 'correct_typos', 'folder_id', 'image_path', 'language', 'like', 'limit', 'media_id', 'media_type', 'near', 'near_km', 'query', 'speaker', 'threshold', 'understand'],
      );
      expect(search.inputSchema.required).toEqual(['collection']);
      expect(client.getInstructions()).toMatch(/list_collections/);
    });

    it('lists the collections and finds the right moment with search', async () => {
      const { collections } = await callJson(client, 'list_collections', {});
      expect(collections.map((c: { collection_id: string }) => c.collection_id).sort()).toEqual(['demo', 'home-http', 'home-stdio']);
      const { moments } = await callJson(client, 'search', { query: 'penalty shot', collection: 'demo' });
      expect(moments[0]).toMatchObject({
        media_id: 'cup-final',
        title: 'Cup final 2024',
        start_time: 52.5,
        time: '0:52',
        episode_id: 1,
        link: 'https://example.invalid/final.mp4#t=52.5',
        resource: 'vidx://collections/demo/items/cup-final',
      });
      expect(moments[0].passage).toContain('The captain takes the penalty shot.');
      // The filters of POST /search: one media item only, and a limit.
      const onlyLake = await callJson(client, 'search', { query: 'the', collection: 'demo', media_id: 'lake-trip', limit: 1 });
      expect(onlyLake.moments.length).toBeLessThanOrEqual(1);
      for (const m of onlyLake.moments) expect(m.media_id).toBe('lake-trip');
      const none = await callJson(client, 'search', { query: 'xylophone zebra', collection: 'demo' });
      expect(none.moments).toEqual([]);
      expect(none.note).toMatch(/Nothing matched/);
      // What POST /search could not look for comes along (no image–text model in tests), in German on request.
      expect(none.notices).toEqual([{ code: 'image_text_missing', message: expect.stringMatching(/^What is only seen/) }]);
      expect(none.corrected).toEqual([]);
      const german = await callJson(client, 'search', { query: 'xylophone zebra', collection: 'demo', language: 'de' });
      expect(german.notices).toEqual([{ code: 'image_text_missing', message: expect.stringMatching(/^Was nur zu sehen ist/) }]);
      expect(none.correction).toBeUndefined();
    });

    it('says which words it searched for a misspelt query and searches the words as typed on request', async () => {
      // "Penallty" is in no moment and no English word: read as "penalty", which the text the agent reads says.
      const r = await client.callTool({ name: 'search', arguments: { query: 'Penallty shot', collection: 'demo' } });
      const text = (r.content as { type: string; text: string }[])[0].text;
      expect(text).toContain('Showing results for penalty shot. Search for Penallty shot instead: call search again with correct_typos: false.');
      const fixed = JSON.parse(text);
      expect(fixed.corrected).toEqual([{ from: 'penallty', to: 'penalty' }]);
      expect(fixed.moments[0]).toMatchObject({ media_id: 'cup-final', start_time: 52.5 });
      const german = await callJson(client, 'search', { query: 'Penallty shot', collection: 'demo', language: 'de' });
      expect(german.correction).toBe('Ergebnisse für penalty shot. Stattdessen nach Penallty shot suchen: search noch einmal mit correct_typos: false aufrufen.');
      const asTyped = await callJson(client, 'search', { query: 'Penallty shot', collection: 'demo', correct_typos: false });
      expect(asTyped.corrected).toEqual([]);
      expect(asTyped.correction).toBeUndefined();
    });

    it('adds a folder, waits for its scan, and finds what is in it', async () => {
      const added = await callJson(client, 'add_folder', { collection: `home-${transport}`, path: join(folderRoot, transport), watch: false, wait_seconds: 120 });
      expect(added.folder).toMatchObject({ path: join(folderRoot, transport) });
      expect(added.scan).toMatchObject({ status: 'completed' });
      const scanned = await callJson(client, 'get_task', { task_id: added.folder.scan_task_id });
      expect(scanned.result).toMatchObject({ found: 1, added: 1, failed: [] });
      const { moments } = await callJson(client, 'search', { query: 'harbour', collection: `home-${transport}`, folder_id: added.folder.folder_id, media_type: 'video' });
      expect(moments.length).toBeGreaterThan(0);
      expect(moments[0]).toMatchObject({ media_type: 'video' });
      const refused = await client.callTool({ name: 'add_folder', arguments: { collection: `home-${transport}`, path: '/etc' } });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/path/);
    });

    it('reads an indexed item as a resource whose text is the transcript with times', async () => {
      const { resources } = await client.listResources();
      expect(resources.map((r) => r.uri)).toEqual(expect.arrayContaining(['vidx://collections/demo/items/cup-final', 'vidx://collections/demo/items/lake-trip']));
      const { contents } = await client.readResource({ uri: 'vidx://collections/demo/items/cup-final' });
      const text = 'text' in contents[0] ? contents[0].text : '';
      expect(text).toMatch(/^Cup final 2024 \(demo\/cup-final\)/);
      expect(text).toContain('[0:52–0:58] The captain takes the penalty shot.');
      expect(text.indexOf('Welcome to the final')).toBeLessThan(text.indexOf('penalty shot'));
    });

    it('gives the transcript of a time range and the analysis a page at a time', async () => {
      const range = await client.callTool({ name: 'get_transcript', arguments: { collection: 'demo', media_id: 'cup-final', from_seconds: 50, to_seconds: 60 } });
      expect(range.isError).toBeFalsy();
      expect(textOf(range)).toContain('[0:52–0:58] The captain takes the penalty shot.');
      expect(textOf(range)).not.toContain('Welcome');
      const whole = await callJson(client, 'get_analysis', { collection: 'demo', media_id: 'cup-final' });
      expect(whole).toMatchObject({ media_id: 'cup-final', video_summary: 'The cup final of the season, decided by a penalty.', episodes_total: 3, next_episode: null });
      expect(whole.episodes[1]).toMatchObject({ episode_id: 1, start: 30, end: 75 });
      // A small budget: one page, and the answer says where the next one starts.
      const first = await callJson(client, 'get_analysis', { collection: 'demo', media_id: 'cup-final', max_chars: 500 });
      expect(first.episodes.length).toBeLessThan(3);
      expect(first.next_episode).toBe(first.episodes.length);
      const rest = await callJson(client, 'get_analysis', { collection: 'demo', media_id: 'cup-final', episode_offset: first.next_episode, max_chars: 500 });
      expect(rest.episodes[0].episode_id).toBe(first.next_episode);
    });

    it('indexes a new file through index_video, then finds a spoken and an on-screen moment in it', async () => {
      const collection = `home-${transport}`;
      const indexed = await callJson(client, 'index_video', { path: corpus.slides.path, collection, media_id: 'slides', title: 'Slides', wait_seconds: 110 });
      expect(indexed).toMatchObject({ status: 'completed', endpoint: '/index', result: { status: 'indexed', media_id: 'slides', collection } });
      const again = await callJson(client, 'get_task', { task_id: indexed.task_id });
      expect(again).toMatchObject({ task_id: indexed.task_id, status: 'completed' });
      const spoken = await callJson(client, 'search', { query: 'penalty shot', collection });
      expect(spoken.moments[0]).toMatchObject({ media_id: 'slides', title: 'Slides', episode_id: 1 });
      expect(spoken.moments[0].start_time).toBeGreaterThanOrEqual(8);
      expect(spoken.moments[0].start_time).toBeLessThan(16);
      expect(spoken.moments[0].link).toMatch(/\/files\/.+#t=/);
      const onScreen = await callJson(client, 'search', { query: 'Golden hour', collection });
      expect(onScreen.moments[0]).toMatchObject({ media_id: 'slides', episode_id: 2 });
      // Without waiting: the task id at once, followed with get_task.
      const queued = await callJson(client, 'index_video', { path: corpus.german.path, collection, media_id: 'german', language: 'de' });
      expect(queued).toMatchObject({ status: 'queued' });
      const done = await callJson(client, 'get_task', { task_id: queued.task_id, wait_seconds: 110 });
      expect(done).toMatchObject({ status: 'completed', result: { media_id: 'german' } });
    });

    it('analyzes a file without indexing it, and suggests topics of a collection', async () => {
      const analyzed = await callJson(client, 'analyze_video', { path: corpus.slides.path, wait_seconds: 110 });
      expect(analyzed).toMatchObject({ status: 'completed', endpoint: '/analyze' });
      expect(analyzed.result.video_summary.length).toBeGreaterThan(0);
      expect(analyzed.result.episodes.length).toBeGreaterThan(0);
      expect(analyzed.result.transcript.join('\n')).toMatch(/\[0:\d\d–0:\d\d\] .*penalty/i);
      // A client that sends a progress token hears the task's progress while the tool waits.
      const progress: Array<{ progress: number; total?: number; message?: string }> = [];
      const fresh = transport === 'http' ? corpus.silent.path : corpus.rotated.path;
      const waited = await client.callTool({ name: 'analyze_video', arguments: { path: fresh, wait_seconds: 110 } }, undefined, { timeout: 120_000, onprogress: (p) => progress.push(p) });
      expect(waited.isError, textOf(waited)).toBeFalsy();
      expect(JSON.parse(textOf(waited)).status).toBe('completed');
      expect(progress.length).toBeGreaterThan(0);
      expect(progress[0]).toMatchObject({ total: 1 });
      expect(progress[0].message).toMatch(/^(queued|running)/);
      // Each notification reports more than the one before, as MCP asks.
      for (let i = 1; i < progress.length; i++) expect(progress[i].progress).toBeGreaterThan(progress[i - 1].progress);
      const { suggestions } = await callJson(client, 'suggest', { collection: 'demo' });
      expect(suggestions.length).toBeGreaterThan(0);
      for (const x of suggestions) expect(['topic', 'question']).toContain(x.type);
      const ids = new Set(suggestions.flatMap((x: { media_ids: string[] }) => x.media_ids));
      for (const id of ids) expect(['cup-final', 'backen', 'lake-trip']).toContain(id);
    });

    it('refuses bad arguments with the reason', async () => {
      const limit = await client.callTool({ name: 'search', arguments: { query: 'penalty', collection: 'demo', limit: 0 } });
      expect(limit.isError).toBe(true);
      expect(textOf(limit)).toMatch(/limit/);
      const both = await client.callTool({ name: 'index_video', arguments: { path: corpus.slides.path, url: 'http://127.0.0.1:9/x.mp4', collection: 'demo' } });
      expect(both.isError).toBe(true);
      expect(textOf(both)).toMatch(/exactly one of path or url/);
      // A rule only the HTTP API knows: its own reason comes through.
      const outside = await client.callTool({ name: 'index_video', arguments: { path: '/etc/hostname', collection: 'demo' } });
      expect(outside.isError).toBe(true);
      const direct = await s.call('POST', '/index', { key: alice, json: { collection: 'demo', video: { path: '/etc/hostname' } } });
      expect(direct.status).toBe(422);
      expect(textOf(outside)).toBe(`${direct.body.detail} (HTTP 422 validation_error)`);
    });

    it("answers another owner's collection with the HTTP API's not found, and refuses a wrong key", async () => {
      const other = await mcpClient(transport, s.url, bob);
      try {
        const r = await other.callTool({ name: 'search', arguments: { query: 'penalty', collection: 'demo' } });
        expect(r.isError).toBe(true);
        const direct = await s.call('POST', '/search', { key: bob, json: { query: 'penalty', collection: 'demo' } });
        expect(direct.status).toBe(404);
        expect(textOf(r)).toBe(`${direct.body.detail} (HTTP 404 not_found)`);
        const t = await other.callTool({ name: 'get_transcript', arguments: { collection: 'demo', media_id: 'cup-final' } });
        expect(textOf(t)).toMatch(/not found \(HTTP 404 not_found\)/);
        await expect(other.readResource({ uri: 'vidx://collections/demo/items/cup-final' })).rejects.toThrow(/not found/);
      } finally {
        await other.close();
      }
      if (transport === 'http') {
        const refused = mcpClient('http', s.url, 'vidx_wrong_key');
        await expect(refused).rejects.toMatchObject({ code: 401 });
        await expect(refused).rejects.toThrow(/unknown API key/);
      } else {
        // The stdio server starts (an agent may start it before vidx), and every call says why it is refused.
        const wrong = await mcpClient('stdio', s.url, 'vidx_wrong_key');
        try {
          const r = await wrong.callTool({ name: 'list_collections', arguments: {} });
          expect(r.isError).toBe(true);
          expect(textOf(r)).toBe('unknown API key (HTTP 401 unauthorized)');
        } finally {
          await wrong.close();
        }
      }
    });
  });
  it('serves /mcp with x-api-key too, answers GET with 405, and documents itself in the OpenAPI document', async () => {
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } } };
    const r = await fetch(`${s.url}/mcp`, {
      method: 'POST',
      headers: { 'x-api-key': alice, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(init),
    });
    expect(r.status).toBe(200);
    expect(await r.text()).toMatch(/"serverInfo":\{[^}]*"name":"vidx"/);
    // The Bearer form is a key like x-api-key on every endpoint.
    const bearer = await s.call('GET', '/collections', { key: null, headers: { authorization: `Bearer ${alice}` } });
    expect(bearer.status).toBe(200);
    expect(bearer.body.collections).toHaveLength(3);
    expect((await s.call('GET', '/collections', { key: null, headers: { authorization: 'Bearer vidx_wrong' } })).status).toBe(401);
    const get = await s.call('GET', '/mcp', { key: alice });
    expect(get.status).toBe(405);
    expect(get.body.detail).toMatch(/statelessly/);
    const doc = (await s.call('GET', '/openapi.json', { key: null })).body;
    expect(doc.paths['/mcp'].post.summary).toMatch(/Model Context Protocol/);
  });

  it('vidx mcp starts without a reachable server and says so on each call', async () => {
    const client = await mcpClient('stdio', 'http://127.0.0.1:1', alice);
    try {
      const r = await client.callTool({ name: 'list_collections', arguments: {} });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/cannot reach vidx at http:\/\/127\.0\.0\.1:1 .*vidx serve/);
    } finally {
      await client.close();
    }
  });
});
