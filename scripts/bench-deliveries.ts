/**
 * Benchmark of one big worker delivery (issue 43): how long the server stops answering while it receives
 * and stores it. A vidx in a process of its own (scripts/bench-deliveries.server.ts) with a Redis of its own
 * on a loopback port and no workers of its own; this script is the worker, by hand: a worker key, heartbeats,
 * an /index task of a 2-second video, its job started, then one delivery of `--lines` transcript lines of
 * `--chars` characters in `--episodes` episodes (the default is the probe of issue 43: 11,500 lines of 20,000
 * characters in one episode, about 230 MB), as JSON lines (`--format lines`, what `vidx worker` sends) or in
 * one JSON object (`--format json`, what workers sent before; also what a vidx before issue 43 reads). Meanwhile a poller asks `GET /health` again as soon as it
 * answered: the longest answer is how long a caller waited at most. The server's own event loop reports its
 * longest delay (monitorEventLoopDelay). Also the server's peak memory (VmHWM) and what the delivery and the
 * task answered. The last line printed is one JSON object.
 *
 * With `--made-up N` the delivery is instead sent N times at once, each by a worker key of its own, to a job
 * id that does not exist (the second finding of issue 43).
 *
 *   npx tsx scripts/bench-deliveries.ts [--lines 11500] [--chars 20000] [--episodes 1] [--format lines|json] [--made-up 8]
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Queue } from 'bullmq';
import type { StoredAnalysis } from '../src/analysis/cache.js';
import { makeVideo } from '../test/support/folder-media.js';
import { jpeg } from '../test/support/hand-worker.js';
import { startRedis } from '../test/support/redis.js';

const { values } = parseArgs({
  options: {
    lines: { type: 'string', default: '11500' }, chars: { type: 'string', default: '20000' }, episodes: { type: 'string', default: '1' }, format: { type: 'string', default: 'lines' },
    'made-up': { type: 'string', default: '0' },
  },
});
const LINES = Number(values.lines);
const CHARS = Number(values.chars);
const EPISODES = Number(values.episodes);
const KEY = 'vidx_bench_deliveries_admin_key_0123456789';
const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;

/** Distinct lines of made-up words (a few hundred, cycled): the text tables get real words to index. */
function lines(): string[] {
  let seed = 43;
  const rand = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const vocabulary = Array.from({ length: 20_000 }, () => Array.from({ length: 3 + Math.floor(rand() * 8) }, () => letters[Math.floor(rand() * 26)]).join(''));
  return Array.from({ length: 300 }, () => {
    let line = '';
    while (line.length < CHARS) line += `${vocabulary[Math.floor(rand() * vocabulary.length)]} `;
    return line.slice(0, CHARS);
  });
}

/** The delivery's analysis: `LINES` lines spread over `EPISODES` episodes of one second each. */
function analysis(): Record<string, unknown> {
  const pool = lines();
  const per = Math.ceil(LINES / EPISODES);
  const episodes = Array.from({ length: EPISODES }, (_, e) => ({
    index: e, start: e, end: e + 1, visual: [], summary: `episode ${e}`, thumbnail: e === 0 ? 'ep-0.jpg' : null, thumbnailTime: e,
    audio: Array.from({ length: Math.max(0, Math.min(per, LINES - e * per)) }, (_, i) => ({ start: e + i / per, end: e + (i + 1) / per, text: pool[(e * per + i) % pool.length] })),
  }));
  return {
    type: 'video', duration: EPISODES, language: 'en', title: 'big delivery', transcript: [], transcriptSource: 'asr', screenText: [], visual: [],
    episodes, summary: 'big', warnings: [], passageVectors: null, frameVectors: null,
  };
}

/** The server's memory now and at its peak (MB), from /proc. */
function memory(pid: number): { rss_mb: number; peak_mb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss_mb: round(kb('VmRSS') / 1024), peak_mb: round(kb('VmHWM') / 1024) };
}

const base = mkdtempSync(join(tmpdir(), 'vidx-bench-deliveries-'));
const media = join(base, 'media');
mkdirSync(media);
const redis = await startRedis();
// BENCH_NODE_ARGS: flags for the server's node (`--trace-gc`, `--cpu-prof`) when looking into what holds it.
const child = spawn(process.execPath, [...(process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? []), '--import', 'tsx', 'scripts/bench-deliveries.server.ts'], {
  env: { ...process.env, VIDX_HOST: '127.0.0.1', VIDX_PORT: '0', VIDX_LOG: process.env.BENCH_SERVER_LOG ? 'info' : 'silent', VIDX_DATA_DIR: join(base, 'data'), VIDX_MEDIA_ROOTS: media, VIDX_ADMIN_KEY: KEY, VIDX_QUEUE_URL: redis.url, VIDX_LOCAL_WORKERS: '0' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
child.once('exit', (code, signal) => console.error(`the benchmark's vidx ended: ${signal ?? code}`));
const lineWaiters: ((line: Record<string, unknown>) => void)[] = [];
let out = '';
child.stdout!.on('data', (d: Buffer) => {
  out += d.toString();
  for (let nl = out.indexOf('\n'); nl >= 0; nl = out.indexOf('\n')) {
    const line = out.slice(0, nl);
    out = out.slice(nl + 1);
    if (line.startsWith('bench {')) lineWaiters.shift()?.(JSON.parse(line.slice(6)) as Record<string, unknown>);
    else if (process.env.BENCH_SERVER_LOG || process.env.BENCH_NODE_ARGS) process.stderr.write(`${line}\n`);
  }
});
const nextLine = () => new Promise<Record<string, unknown>>((r) => lineWaiters.push(r));
let beats: NodeJS.Timeout | undefined;
let queue: Queue | undefined;
try {
  const started = (await nextLine()) as { url: string; pid: number };
  const url = started.url;
  const call = async (method: string, path: string, o: { key?: string; json?: unknown; body?: BodyInit } = {}) => {
    const send = () =>
      fetch(`${url}${path}`, {
        method, body: o.json !== undefined ? JSON.stringify(o.json) : o.body,
        headers: { 'x-api-key': o.key ?? KEY, ...(o.json !== undefined ? { 'content-type': 'application/json' } : {}) },
      });
    // A kept-alive connection the server closed as it went idle (after a stall) fails at once: once more on a new one.
    const res = await send().catch(send);
    // biome-ignore lint/suspicious/noExplicitAny: the answers' fields are read directly; a wrong guess fails the run.
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };
  await makeVideo(join(media, 'clip.mp4'), 'BIG', 2);
  await call('POST', '/collections', { json: { collection_id: 'big', name: 'big' } });
  const key = (await call('POST', '/keys', { json: { name: 'bench', role: 'worker' } })).body.key as string;
  const setup = (await call('GET', '/worker/setup', { key })).body as { queue: string; prefix: string };
  const beat = (jobs: string[]) => call('POST', '/worker/heartbeat', { key, json: { id: 'bench-1', host: 'bench', version: '0', concurrency: 1, models: {}, queue: setup.queue, jobs } });
  let held: string[] = [];
  await beat(held);
  beats = setInterval(() => void beat(held).catch(() => {}), 1_000);
  const task = (await call('POST', '/index', { json: { collection: 'big', video: { path: join(media, 'clip.mp4') } } })).body.task_id as string;
  queue = new Queue(setup.queue, { connection: { url: redis.url }, prefix: setup.prefix });
  queue.on('error', () => {});
  let job: string | undefined;
  while (!job) {
    job = (await queue.getJobs(['waiting', 'active', 'prioritized'])).find((j) => j.id?.startsWith(task))?.id;
    if (!job) await new Promise((r) => setTimeout(r, 100));
  }
  held = [job];
  const start = await call('POST', `/worker/jobs/${job}/start`, { key, json: { worker: 'bench-1' } });
  if (start.body.status !== 'ready') throw new Error(`the job did not start: ${JSON.stringify(start.body)}`);

  // As `vidx worker` sends it (JSON lines), or in one JSON object (`--format json`, as workers did before).
  const form = new FormData();
  const a = analysis();
  let bodyBytes: number;
  if (values.format === 'json') {
    const body = JSON.stringify({ worker: 'bench-1', files: ['ep-0.jpg'], analysis: a });
    bodyBytes = Buffer.byteLength(body);
    form.set('body', body);
  } else {
    // Imported here, so the script also runs (with `--format json`) in a checkout from before JSON lines.
    const { deliveryLines } = await import('../src/services/jobs/delivery-lines.js');
    const lines = [...deliveryLines({ worker: 'bench-1', files: ['ep-0.jpg'] }, a as unknown as StoredAnalysis)].map((l) => `${l}\n`);
    bodyBytes = lines.reduce((n, l) => n + Buffer.byteLength(l), 0);
    form.set('body', new Blob(lines, { type: 'application/x-ndjson' }), 'body.jsonl');
  }
  form.append('ep-0.jpg', new Blob([new Uint8Array(await jpeg())]), 'ep-0.jpg');
  const before = memory(started.pid);
  child.kill('SIGUSR2');
  await nextLine();

  // The poller: one /health at a time, each as soon as the last answered, until the task is done.
  let polling = true;
  const waits: number[] = [];
  let resets = 0;
  const poller = (async () => {
    let rssMax = 0;
    while (polling) {
      const t = performance.now();
      // A kept-alive connection the server dropped while it was stalled answers ECONNRESET: counted as the
      // wait it was, and asked again on a new connection.
      await fetch(`${url}/health`).then((r) => r.arrayBuffer()).catch(() => resets++);
      waits.push(performance.now() - t);
      if (child.exitCode === null && child.signalCode === null) rssMax = Math.max(rssMax, memory(started.pid).rss_mb);
      await new Promise((r) => setTimeout(r, 5));
    }
    return rssMax;
  })();
  const t0 = performance.now();
  const madeUp = Number(values['made-up']);
  let others: { status: number; body: Record<string, unknown> }[] = [];
  if (madeUp > 0) {
    // N keys, each its own worker, each sending the body to a job that does not exist, all at once.
    const keys = await Promise.all(Array.from({ length: madeUp }, async (_, i) => {
      const k = (await call('POST', '/keys', { json: { name: `stranger-${i}`, role: 'worker' } })).body.key as string;
      await call('POST', '/worker/heartbeat', { key: k, json: { id: `stranger-${i}`, host: 'bench', version: '0', concurrency: 1, models: {}, queue: setup.queue, jobs: [] } });
      return k;
    }));
    others = await Promise.all(keys.map((k) => call('POST', `/worker/jobs/${task}-made-up-job/result`, { key: k, body: form }).catch((err: Error) => ({ status: 0, body: { error: err.message } }))));
  }
  // A kept-alive connection the server closed as it went idle fails at once (ECONNRESET): sent once more.
  const delivered = madeUp > 0 ? others[0]! : await call('POST', `/worker/jobs/${job}/result`, { key, body: form });
  const deliverS = (performance.now() - t0) / 1000;
  // A refused delivery leaves the task waiting for another: nothing more to wait for then.
  let status = delivered.body.status === 'committed' ? '' : 'not delivered';
  let error: unknown = null;
  while (status !== 'completed' && status !== 'failed' && status !== 'not delivered') {
    const t = (await call('GET', `/tasks/${task}`)).body;
    status = t.status as string;
    error = t.error ?? null;
    if (status !== 'completed' && status !== 'failed') await new Promise((r) => setTimeout(r, 50));
  }
  const storedS = (performance.now() - t0) / 1000;
  polling = false;
  const rssMax = await poller;
  child.kill('SIGUSR2');
  const loop = await nextLine();
  const after = memory(started.pid);
  waits.sort((a, b) => b - a);
  console.log(JSON.stringify({
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, model: cpus()[0]?.model ?? 'unknown', load_avg_1m: round(loadavg()[0], 2) },
    delivery: { lines: LINES, chars: CHARS, episodes: EPISODES, format: values.format, body_mb: round(bodyBytes / 2 ** 20) },
    answer: { status: delivered.status, body: delivered.body },
    ...(madeUp > 0 ? { made_up: { sent: madeUp, answers: others.map((o) => `${o.status} ${String(o.body.status ?? o.body.code ?? o.body.error)}`) } } : {}),
    task: { status, error },
    deliver_s: round(deliverS, 2),
    until_stored_s: round(storedS, 2),
    health_polls: waits.length,
    health_resets: resets,
    health_longest_ms: waits.slice(0, 5).map((w) => round(w)),
    loop_max_ms: round(loop.loop_max_ms as number),
    rss_mb: { before: before.rss_mb, max_sampled: rssMax, peak: after.peak_mb },
  }));
} finally {
  clearInterval(beats);
  await queue?.close();
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  await redis.stop();
  rmSync(base, { recursive: true, force: true });
}
