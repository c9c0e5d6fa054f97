/**
 * Relevance benchmark: renders the judged collection (scripts/relevance/corpus.ts) into a temp folder,
 * indexes it through a real vidx on 127.0.0.1 with a fresh data dir and no pulled models, asks every
 * judged query (scripts/relevance/queries.ts) through POST /search with limit 10, and scores the answers:
 * nDCG@10, the first-hit rate, no-answer queries answered right, the misses, and all of it per kind.
 * A table per query goes to stderr; the last stdout line is one JSON object.
 *
 *   npm run bench:relevance [-- --keep]
 *
 * --keep leaves the temp folder (media and data dir) for a look afterwards.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.js';
import { startVidx } from '../src/server.js';
import { checkJudgedSet } from './relevance/check.js';
import { CORPUS } from './relevance/corpus.js';
import { mediaFiles, renderAll } from './relevance/media.js';
import { scoreQuery, summarize, type QueryOutcome, type RankedResult } from './relevance/metrics.js';
import { QUERIES } from './relevance/queries.js';
import { printTable } from './relevance/table.js';

const ADMIN_KEY = 'vidx_bench_relevance_key_0000000000';
const COLLECTION = 'home';
// Nothing listens on the discard port: a model pull, were one ever started, fails at once on loopback.
const NO_HUB = 'http://127.0.0.1:9/';

interface Client {
  post(path: string, body: unknown): Promise<{ status: number; body: unknown }>;
  get(path: string): Promise<{ status: number; body: unknown }>;
}

function client(url: string): Client {
  const send = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { 'x-api-key': ADMIN_KEY, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as unknown) : null };
  };
  return { post: (path, body) => send('POST', path, body), get: (path) => send('GET', path) };
}

async function indexAll(api: Client, mediaDir: string): Promise<void> {
  const created = await api.post('/collections', { collection_id: COLLECTION, name: 'Home archive' });
  if (created.status !== 201 && created.status !== 200) throw new Error(`collection: ${created.status} ${JSON.stringify(created.body)}`);
  const tasks: { id: string; media: string }[] = [];
  for (const m of CORPUS) {
    // The item's language is said as a user indexing a German video would say it; the German sidecar's name says it too.
    const r = await api.post('/index', { collection: COLLECTION, index_language: m.language, video: { path: mediaFiles(mediaDir, m).video, media_id: m.id, title: m.title } });
    if (r.status !== 202) throw new Error(`index ${m.id}: ${r.status} ${JSON.stringify(r.body)}`);
    tasks.push({ id: (r.body as { task_id: string }).task_id, media: m.id });
  }
  for (const t of tasks) {
    for (;;) {
      const task = (await api.get(`/tasks/${t.id}`)).body as { status: string; error?: { message: string } | null };
      if (task.status === 'completed') break;
      if (task.status === 'failed') throw new Error(`indexing ${t.media} failed: ${task.error?.message ?? 'no message'}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  // A German item analysed as English would make every German miss a language slip, not a ranking one.
  for (const m of CORPUS) {
    const { language } = (await api.get(`/collections/${COLLECTION}/items/${m.id}/analysis`)).body as { language: string | null };
    if (language !== m.language) throw new Error(`${m.id} was analysed as ${language ?? 'nothing'}, not ${m.language}`);
  }
}

async function search(api: Client, query: string): Promise<RankedResult[]> {
  const r = await api.post('/search', { query, collection: COLLECTION, limit: 10 });
  if (r.status !== 200) throw new Error(`search "${query}": ${r.status} ${JSON.stringify(r.body)}`);
  const body = r.body as { results: RankedResult[]; corrected?: { from: string; to: string }[] };
  // Corrections shape what is found: shown so a miss can be told from a wrong correction.
  if (body.corrected?.length) console.error(`  "${query}": searched as ${body.corrected.map((c) => `${c.from} → ${c.to}`).join(', ')}`);
  return body.results.map((x) => ({ media_id: x.media_id, start_time: x.start_time, content: x.content }));
}

const seconds = (t0: number): number => Math.round((performance.now() - t0) / 100) / 10;

async function main(): Promise<void> {
  const problems = checkJudgedSet(CORPUS, QUERIES);
  if (problems.length) throw new Error(`the judged set is not fit to run:\n  ${problems.join('\n  ')}`);
  const root = mkdtempSync(join(tmpdir(), 'vidx-relevance-'));
  const mediaDir = join(root, 'media');
  mkdirSync(mediaDir);
  const keep = process.argv.includes('--keep');
  try {
    let t0 = performance.now();
    await renderAll(mediaDir, CORPUS);
    const renderSec = seconds(t0);
    console.error(`rendered ${CORPUS.length} media in ${renderSec} s`);
    const config = loadConfig({
      VIDX_HOST: '127.0.0.1',
      VIDX_PORT: '0',
      VIDX_DATA_DIR: join(root, 'data'),
      VIDX_MEDIA_ROOTS: mediaDir,
      // An empty models dir of its own: the figures are those of a fresh install, whatever this machine has pulled.
      VIDX_MODELS_DIR: join(root, 'models'),
      VIDX_HUB_URL: NO_HUB,
      VIDX_ADMIN_KEY: ADMIN_KEY,
      VIDX_LOG: 'silent',
    });
    const vidx = await startVidx(config);
    try {
      const api = client(vidx.url);
      t0 = performance.now();
      await indexAll(api, mediaDir);
      const indexSec = seconds(t0);
      console.error(`indexed in ${indexSec} s`);
      t0 = performance.now();
      const outcomes: QueryOutcome[] = [];
      for (const q of QUERIES) outcomes.push(scoreQuery(q, await search(api, q.query)));
      const searchSec = seconds(t0);
      printTable(outcomes);
      const summary = summarize(outcomes);
      console.log(JSON.stringify({ bench: 'relevance', ...summary, seconds: { render: renderSec, index: indexSec, search: searchSec } }));
    } finally {
      await vidx.close();
    }
  } finally {
    if (keep) console.error(`kept ${root}`);
    else rmSync(root, { recursive: true, force: true });
  }
}

await main();
