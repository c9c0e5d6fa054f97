/**
 * Load benchmark: 50 concurrent searchers over HTTP (127.0.0.1) against a vidx in its own process, first
 * alone, then while a /collection_suggestions request and the delete of the 100k-episode collection run,
 * then (unless --no-index) while a generated video of --video-minutes (default 4) is indexed with the models
 * this machine has.
 * The searchers ask the small collections (the big one disappears under them). The database is a copy of
 * one built by bench:search (--from DIR, kept with --keep) or built here. The last line printed is one JSON
 * object: p50/p99 of the searches, their errors and the benchmark's own CPU per search per phase, how long
 * the suggestions request and the DELETE took to answer, and how long the background purge of the deleted
 * collection ran.
 *
 *   npm run bench:load -- [--from DIR] [--episodes 100000] [--clients 50] [--seconds 15] [--think-ms 1000]
 *                         [--video-minutes 4 | --no-index] [--fetch]
 *
 * The first phase runs right after the server answers (its first 5 s: caches cold, search threads starting).
 * --fetch: the searchers use `fetch` (undici) instead of node:http, as a plain script would.
 *
 * Each client waits a random 0..2 × think-ms before its first search and between searches (50 users searching about once a second
 * each); --think-ms 0 makes a closed loop, whose latency is then clients / throughput.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { SERVER_OUT, serverBuildFresh } from './build-server.js';
import { loadConfig } from '../src/config.js';
import { defaultTools } from '../src/media/binaries.js';
import { startVidx } from '../src/server.js';
import { ADMIN_KEY, arg, benchEmbedder, build, queries, round2 } from './bench-search.js';

/** The server side: started by the benchmark as a child process, prints {"url"} once listening. */
async function serve(dir: string): Promise<void> {
  // The generated video lives beside the data dir: vidx never reads media inside its own data folder.
  const config = loadConfig({ VIDX_HOST: '127.0.0.1', VIDX_PORT: '0', VIDX_DATA_DIR: dir, VIDX_LOG: 'silent', VIDX_ADMIN_KEY: ADMIN_KEY, VIDX_MEDIA_ROOTS: mediaDirOf(dir),
    // Models: VIDX_MODELS_DIR from the environment, else the copy's own models dir (usually none: then indexing
    // does the ffmpeg work only, without ASR, OCR or embeddings).
    ...(process.env.VIDX_MODELS_DIR ? { VIDX_MODELS_DIR: process.env.VIDX_MODELS_DIR } : {}),
    // Search threads: the default (the cores), or as the environment says (0: all on the request thread).
    ...(process.env.VIDX_SEARCH_THREADS ? { VIDX_SEARCH_THREADS: process.env.VIDX_SEARCH_THREADS } : {}),
  });
  // The search threads start from lib/'s compiled module when it matches the sources, as `npm start` runs them
  // (from the TypeScript sources a thread compiles them first, seconds a start).
  const compiled = join(SERVER_OUT, 'startup', 'search-thread.js');
  const searchThreadEntry = existsSync(compiled) && serverBuildFresh() ? pathToFileURL(compiled) : undefined;
  const vidx = await startVidx(config, { queryEmbedder: benchEmbedder, ...(searchThreadEntry ? { searchThreadEntry } : {}) });
  if (arg('lag') === 'true') reportLag();
  process.stdout.write(`${JSON.stringify({ url: vidx.url })}\n`);
  const stop = () => void vidx.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  // The benchmark holds our stdin open: when it ends (the benchmark exited or crashed), stop too.
  process.stdin.on('end', stop).resume();
}

const mediaDirOf = (dir: string) => `${dir}-media`;

/**
 * --lag: the server prints each second in which its event loop stalled for more than 100 ms, and each
 * garbage collection that held it for 10 ms or more (finding what makes the slowest searches slow).
 */
function reportLag(): void {
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  setInterval(() => {
    const max = h.max / 1e6;
    if (max > 100) console.error(`  [server] event loop stalled ${max.toFixed(0)} ms at ${new Date().toISOString()}`);
    h.reset();
  }, 1000).unref();
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.duration >= 10) console.error(`  [server] garbage collection ${e.duration.toFixed(0)} ms (${e.name}) at ${new Date().toISOString()}`);
  }).observe({ entryTypes: ['gc'] });
}

async function startServer(dir: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--serve', dir, ...(arg('lag') === 'true' ? ['--lag'] : [])], { stdio: ['pipe', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return { url: (JSON.parse(line) as { url: string }).url, child };
}

function post(url: string, path: string, body: unknown): Promise<Response> {
  return fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'x-api-key': ADMIN_KEY, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ body: JSON.stringify(body) }),
  });
}

/**
 * The searchers' client: node:http over kept-alive connections. It shares the machine's cores with the
 * server, so it has to be light: with fetch (undici) the benchmark spent ~2.8 ms of CPU per search, about
 * as much as the server spent answering; with this, 0.8–1.4 ms (2026-11-27, 2 cores; docs/performance.md).
 */
const searchAgent = new http.Agent({ keepAlive: true, maxSockets: 256 });

/** POSTs one search as the page's form does and reads the whole answer; resolves to its HTTP status. */
function postSearch(url: string, body: unknown): Promise<number> {
  if (arg('fetch') === 'true') {
    return post(url, '/search', body).then(async (res) => {
      await res.arrayBuffer();
      return res.status;
    });
  }
  const form = new URLSearchParams({ body: JSON.stringify(body) }).toString();
  return new Promise((resolve, reject) => {
    const req = http.request(`${url}/search`, {
      method: 'POST',
      agent: searchAgent,
      headers: { 'x-api-key': ADMIN_KEY, 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(form) },
    }, (res) => {
      res.on('error', reject).on('end', () => resolve(res.statusCode ?? 0)).resume();
    });
    req.on('error', reject).end(form);
  });
}

interface PhaseResult {
  searches: number;
  errors: number;
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
  /** The benchmark's own CPU per search (its client shares the cores with the server). */
  client_cpu_ms: number;
  /** Searches answered per second of the phase (with --think-ms 0, the server's throughput). */
  per_s: number;
}

/** `clients` searchers loop over the queries until `until` resolves (and at least `minMs` passed). */
async function searchers(url: string, clients: number, thinkMs: number, qs: string[], until: Promise<unknown>, minMs: number): Promise<PhaseResult> {
  let done = false;
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  void until.finally(async () => {
    const left = minMs - (performance.now() - t0);
    if (left > 0) await new Promise((r) => setTimeout(r, left));
    done = true;
  });
  const times: number[] = [];
  let errors = 0;
  let next = 0;
  const collections = ['side-a', 'side-b', 'side-c'];
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      // Users do not all press enter in the same millisecond: each starts after its own think time.
      if (thinkMs > 0) await new Promise((r) => setTimeout(r, Math.random() * 2 * thinkMs));
      while (!done) {
        const q = qs[next++ % qs.length];
        const t = performance.now();
        try {
          const status = await postSearch(url, { query: q, collection: collections[c % collections.length], limit: 10 });
          if (status !== 200) errors++;
          else times.push(performance.now() - t);
        } catch {
          errors++;
        }
        if (thinkMs > 0 && !done) await new Promise((r) => setTimeout(r, Math.random() * 2 * thinkMs));
      }
    }),
  );
  times.sort((a, b) => a - b);
  const at = (p: number) => (times.length ? times[Math.min(times.length - 1, Math.floor(p * times.length))] : 0);
  const cpu = process.cpuUsage(cpu0);
  const seconds = (performance.now() - t0) / 1000;
  return { searches: times.length, errors, p50_ms: round2(at(0.5)), p99_ms: round2(at(0.99)), max_ms: round2(at(1)), client_cpu_ms: round2((cpu.user + cpu.system) / 1000 / Math.max(1, times.length)), per_s: round2(times.length / seconds) };
}

async function timed(f: () => Promise<Response>): Promise<{ status: number; s: number }> {
  const t = performance.now();
  const res = await f();
  await res.arrayBuffer();
  return { status: res.status, s: round2((performance.now() - t) / 1000) };
}

/** A test video: moving test pattern with a clock, a tone, 640x360, H.264/AAC. */
async function makeVideo(file: string, minutes: number): Promise<void> {
  const ffmpeg = defaultTools.ffmpeg();
  await new Promise<void>((resolve, reject) => {
    const p = spawn(ffmpeg, [
      '-hide_banner', '-nostdin', '-loglevel', 'error', '-y',
      '-f', 'lavfi', '-i', `testsrc2=size=640x360:rate=25:duration=${minutes * 60}`,
      '-f', 'lavfi', '-i', `sine=frequency=440:duration=${minutes * 60}`,
      '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', '-shortest', file,
    ], { stdio: 'inherit' });
    p.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg exited with ${code}`))));
  });
}

async function taskDone(url: string, id: string): Promise<{ status: string; s: number }> {
  const t0 = performance.now();
  for (;;) {
    const res = await fetch(`${url}/tasks/${id}`, { headers: { 'x-api-key': ADMIN_KEY } });
    const task = (await res.json()) as { status: string };
    if (task.status === 'completed' || task.status === 'failed') return { status: task.status, s: round2((performance.now() - t0) / 1000) };
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** How long the first phase, right after the server answers, lasts. */
const START_SECONDS = 5;

async function main(): Promise<void> {
  const clients = Number(arg('clients', '50'));
  const seconds = Number(arg('seconds', '15'));
  const thinkMs = Number(arg('think-ms', '1000'));
  const from = arg('from');
  const dir = mkdtempSync(join(tmpdir(), 'vidx-bench-load-'));
  let buildSeconds: number | null = null;
  if (from) {
    if (!existsSync(join(from, 'vidx.db'))) throw new Error(`--from ${from}: no vidx.db there (build one with bench:search --keep)`);
    console.error(`copying ${from}/vidx.db`);
    for (const f of ['vidx.db', 'vidx.db-wal']) if (existsSync(join(from, f))) copyFileSync(join(from, f), join(dir, f));
    // The vector indexes saved beside it (else the server rebuilds them in the background first).
    if (existsSync(join(from, 'vector-index'))) cpSync(join(from, 'vector-index'), join(dir, 'vector-index'), { recursive: true });
  } else {
    const episodes = Number(arg('episodes', '100000'));
    console.error(`building ${episodes} episodes (+ 3 side collections) in ${dir}`);
    buildSeconds = round2(build(dir, episodes));
  }
  const { url, child } = await startServer(dir);
  try {
    const qs = queries(300);
    // The first seconds after the start, before any search warmed a cache or started a thread.
    console.error(`${clients} searchers, the first ${START_SECONDS} s after the start`);
    const start = await searchers(url, clients, thinkMs, qs, new Promise((r) => setTimeout(r, START_SECONDS * 1000)), 0);
    console.error(`  ${JSON.stringify(start)}`);
    // Warm the caches (pages, prepared statements) so the first phase does not time a cold start.
    for (const q of qs.slice(0, 20)) await (await post(url, '/search', { query: q, collection: 'side-a', limit: 10 })).arrayBuffer();
    console.error(`${clients} searchers, alone, ${seconds} s`);
    const alone = await searchers(url, clients, thinkMs, qs, new Promise((r) => setTimeout(r, seconds * 1000)), 0);
    console.error(`  ${JSON.stringify(alone)}`);
    console.error(`${clients} searchers while suggestions on side-b and the delete of main run`);
    const suggestions = timed(() => post(url, '/collection_suggestions', { collection: 'side-b' }));
    const del = timed(() => fetch(`${url}/collections/main`, { method: 'DELETE', headers: { 'x-api-key': ADMIN_KEY } }));
    // DELETE answers once the collection is hidden; its rows are purged in the background. A read-only
    // connection to the same file (WAL) sees when the purge is done.
    const purged = (async () => {
      await del;
      const t0 = performance.now();
      const db = new Database(join(dir, 'vidx.db'), { readonly: true });
      const left = db.prepare('SELECT count(*) FROM collections WHERE deleting = 1').pluck();
      while ((left.get() as number) > 0) await new Promise((r) => setTimeout(r, 250));
      db.close();
      return round2((performance.now() - t0) / 1000);
    })();
    const busy = await searchers(url, clients, thinkMs, qs, Promise.all([suggestions, purged]), seconds * 1000);
    console.error(`  ${JSON.stringify(busy)}`);
    const [s, d, purgeSeconds] = await Promise.all([suggestions, del, purged]);
    if (s.status !== 200 || d.status !== 200) throw new Error(`suggestions answered ${s.status}, delete ${d.status}`);
    let indexing: { searches: PhaseResult; status: string; s: number; video_minutes: number } | null = null;
    if (arg('no-index') !== 'true') {
      const minutes = Number(arg('video-minutes', '4'));
      mkdirSync(mediaDirOf(dir), { recursive: true });
      const video = join(mediaDirOf(dir), 'bench.mp4');
      console.error(`making a ${minutes}-minute video`);
      await makeVideo(video, minutes);
      const res = await post(url, '/index', { video: { path: video, media_id: 'bench-video' }, collection: 'side-c' });
      if (res.status !== 202) throw new Error(`/index answered ${res.status}: ${await res.text()}`);
      const done = taskDone(url, ((await res.json()) as { task_id: string }).task_id);
      console.error(`${clients} searchers while it indexes`);
      const searches = await searchers(url, clients, thinkMs, qs, done, 0);
      const task = await done;
      console.error(`  ${JSON.stringify(searches)} (${task.status} in ${task.s} s)`);
      indexing = { searches, status: task.status, s: task.s, video_minutes: minutes };
    }
    console.log(
      JSON.stringify({
        clients,
        think_ms: thinkMs,
        client: arg('fetch') === 'true' ? 'fetch' : 'node:http',
        first_seconds: start,
        alone,
        with_suggestions_and_delete: busy,
        suggestions_s: s.s,
        delete_answer_s: d.s,
        purge_s: purgeSeconds,
        while_indexing: indexing?.searches ?? null,
        index_status: indexing?.status ?? null,
        index_s: indexing?.s ?? null,
        video_minutes: indexing?.video_minutes ?? null,
        build_s: buildSeconds,
      }),
    );
  } finally {
    searchAgent.destroy();
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dir, { recursive: true, force: true });
    rmSync(mediaDirOf(dir), { recursive: true, force: true });
  }
}

const serveDir = arg('serve');
(serveDir ? serve(serveDir) : main()).catch((err) => {
  console.error(err);
  process.exit(1);
});
