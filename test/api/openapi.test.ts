/**
 * The API document GET /openapi.json serves: lint-clean under redocly.yaml (recommended rules; 0 errors, and
 * no warning beyond the ones listed there), a unique camelCase operationId everywhere, a server, `security: []`
 * exactly on the routes served without a key, typed task data and results, stream elements, JSON-RPC errors on
 * /mcp, and file parts only where uploads are taken.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';

/** The parts of an OpenAPI document these checks read. */
type Schema = { $ref?: string; properties?: Record<string, Schema>; items?: Schema; anyOf?: Schema[]; oneOf?: Schema[]; format?: string; [k: string]: unknown };
type Operation = { operationId?: string; security?: Record<string, string[]>[]; requestBody?: { content: Record<string, { schema: Schema }> }; responses: Record<string, { content?: Record<string, { schema: Schema }> }> };
type Doc = { servers?: { url: string }[]; security?: unknown[]; paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } };

/** Served without a key (src/http/middleware/auth): the document must say `security: []` on exactly these. */
const PUBLIC = ['GET /health', 'GET /openapi.json', 'GET /docs', 'GET /files/{path}', 'GET /', 'GET /shared/{token}'];

/** The warnings redocly.yaml lists with its reasons; any other warning fails. */
const KNOWN_WARNINGS = ['/health', '/openapi.json', '/docs', '/'].map((p) => `operation-4xx-response #/paths/${p.replaceAll('/', '~1')}/get/responses`);

let s: TestServer;
let doc: Doc;
let dir: string;

const operations = () => Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ id: `${method.toUpperCase()} ${path}`, op })));
const resolve = (schema: Schema): Schema => (schema.$ref ? doc.components.schemas[schema.$ref.split('/').pop()!] : schema);

beforeAll(async () => {
  s = await startTestServer();
  doc = (await s.call('GET', '/openapi.json', { key: null })).body as Doc;
  dir = mkdtempSync(join(tmpdir(), 'vidx-openapi-test-'));
});

afterAll(async () => {
  await s?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('GET /openapi.json', () => {
  it('passes redocly lint (recommended) with 0 errors and only the warnings redocly.yaml explains', async () => {
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(doc, null, 2));
    const cli = join(process.cwd(), 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
    // Exit code 1 means errors; the JSON report says which, so it is read either way.
    const run = await promisify(execFile)(process.execPath, [cli, 'lint', file, '--config', 'redocly.yaml', '--format=json'], {
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      maxBuffer: 16 * 1024 * 1024,
    }).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }));
    const report = JSON.parse(run.stdout) as { totals: { errors: number; warnings: number }; problems: { ruleId: string; message: string; location: { pointer: string }[] }[] };
    const problems = report.problems.map((p) => `${p.ruleId} ${p.location[0]?.pointer}`);
    expect(report.totals.errors, problems.join('\n')).toBe(0);
    expect(problems.sort()).toEqual([...KNOWN_WARNINGS].sort());
  }, 60_000);

  it('gives every operation a unique camelCase operationId', () => {
    const ids = operations().map(({ id, op }) => [id, op.operationId] as const);
    for (const [id, opId] of ids) expect(opId, id).toMatch(/^[a-z][a-zA-Z0-9]*$/);
    const seen = ids.map(([, opId]) => opId);
    expect(new Set(seen).size).toBe(seen.length);
    expect(Object.fromEntries(ids.filter(([id]) => ['POST /collections', 'GET /tasks', 'GET /tasks/{task_id}', 'POST /search'].includes(id)))).toEqual({
      'POST /collections': 'createCollection', 'GET /tasks': 'listTasks', 'GET /tasks/{task_id}': 'getTask', 'POST /search': 'searchMedia',
    });
  });

  it('names this server as its server', () => {
    expect(doc.servers).toEqual([expect.objectContaining({ url: new URL(s.url).origin })]);
  });

  it('says security: [] on exactly the routes served without a key, and the key everywhere else', async () => {
    expect(doc.security).toEqual([{ ApiKey: [] }]);
    const open = operations().filter(({ op }) => Array.isArray(op.security) && op.security.length === 0).map(({ id }) => id);
    expect(open.sort()).toEqual([...PUBLIC].sort());
    for (const { id, op } of operations()) if (!PUBLIC.includes(id)) expect(op.security ?? doc.security, id).toEqual([{ ApiKey: [] }]);
    // And the server agrees: none of them asks for a key (a file link without a signature is 400/403, not 401).
    for (const path of ['/health', '/openapi.json', '/docs', '/files/x.jpg', '/', '/shared/not-a-share-token']) expect((await s.call('GET', path, { key: null })).status, path).not.toBe(401);
  });

  it('types Task data and result per kind (no empty schemas)', () => {
    const kinds = (doc.components.schemas.Task.oneOf ?? []).map(resolve);
    expect(kinds.map((k) => (k.properties!.kind as { enum?: string[] }).enum?.[0]).sort()).toEqual(['analyze', 'clusters', 'folder_scan', 'index', 'model_pull', 'reindex', 'suggestions']);
    for (const kind of kinds) {
      const data = resolve(kind.properties!.data);
      expect(Object.keys(data.properties ?? {}).length, JSON.stringify(kind.properties!.endpoint)).toBeGreaterThan(0);
      const result = kind.properties!.result.anyOf!.find((r) => r.type !== 'null')!;
      const shape = result.items ? resolve(result.items) : resolve(result);
      expect(Object.keys(shape.properties ?? {}).length, JSON.stringify(kind.properties!.endpoint)).toBeGreaterThan(0);
    }
    expect(Object.keys(doc.components.schemas.AnalyzeResult.properties!)).toEqual(expect.arrayContaining(['video_summary', 'audio_summary', 'visual_summary', 'episodic_summary']));
    expect(Object.keys(doc.components.schemas.IndexResult.properties!)).toEqual(expect.arrayContaining(['status', 'episodes']));
    expect(Object.keys(doc.components.schemas.ScanResult.properties!)).toEqual(expect.arrayContaining(['added', 'removed', 'failed']));
  });

  it('references the element schemas from the streaming answers, and JSON-RPC errors from /mcp', () => {
    for (const [path, element] of [['/search_clusters', 'ClusterElement'], ['/collection_suggestions', 'SuggestionElement']]) {
      const content = doc.paths[path].post.responses['200'].content!;
      for (const type of ['application/json-seq', 'application/x-ndjson']) {
        expect(content[type].schema.anyOf!.map((s) => s.$ref), `${path} ${type}`).toEqual([`#/components/schemas/${element}`, '#/components/schemas/StreamError']);
      }
    }
    const mcp = doc.paths['/mcp'].post.responses;
    for (const status of ['400', '406', '415']) expect(mcp[status].content!['application/json'].schema.$ref, status).toBe('#/components/schemas/JsonRpcError');
  });

  it('shows file parts only on the endpoints that take uploads', () => {
    const withFiles = operations()
      .filter(({ op }) => Object.values(resolve(op.requestBody?.content['multipart/form-data']?.schema ?? {}).properties ?? {}).some((p) => p.format === 'binary'))
      .map(({ id }) => id);
    expect(withFiles.sort()).toEqual(['POST /analyze', 'POST /index', 'POST /models/import', 'POST /search', 'POST /worker/jobs/{job_id}/result']);
  });
});
