/**
 * Start figures of the server as `npm start` runs it: compiled JavaScript (`node lib/main.js`, built by
 * scripts/build-server.ts) beside the TypeScript sources through tsx (`node --import tsx src/main.ts`, what
 * `npm start` ran before). For each: time from spawn to listening, the first analysis of a 3-second video
 * (it starts the analysis thread, which loads the pipeline and the models) and a second one (thread warm, another video: the same one would come from the analysis cache),
 * and resident memory after start and after the first analysis (VmRSS of the process, threads included).
 * Best of `--runs` (default 3) for times, the last run's memory.
 *
 * Run: `npx tsx scripts/bench-start.ts [--runs 3]`. The last line printed is one JSON object.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildServer } from './build-server.js';
import { makeVideo } from '../test/support/folder-media.js';

const KEY = 'vidx_bench_admin_key_0123456789';
const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' } } });
const runs = Number(values.runs);

const rssMb = (pid: number): number => Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024);

async function analyse(url: string, file: string): Promise<number> {
  const t0 = performance.now();
  const headers = { 'x-api-key': KEY, 'content-type': 'application/json' };
  const { task_id } = (await (await fetch(`${url}/analyze`, { method: 'POST', headers, body: JSON.stringify({ video: { path: file } }) })).json()) as { task_id: string };
  for (;;) {
    const task = (await (await fetch(`${url}/tasks/${task_id}`, { headers })).json()) as { status: string; error?: unknown };
    if (task.status === 'completed') return Math.round(performance.now() - t0);
    if (task.status === 'failed') throw new Error(`analysis failed: ${JSON.stringify(task.error)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** One start of `args`: listening time, two analyses, memory. */
async function once(args: string[], base: string, videos: [string, string]) {
  const data = mkdtempSync(join(base, 'data-'));
  const t0 = performance.now();
  const child = spawn(process.execPath, args, {
    env: { PATH: process.env.PATH ?? '', HOME: base, VIDX_HOST: '127.0.0.1', VIDX_PORT: '0', VIDX_DATA_DIR: data, VIDX_MEDIA_ROOTS: join(base, 'media'), VIDX_ADMIN_KEY: KEY, VIDX_LOG: 'silent' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let banner = '';
      child.stderr!.on('data', (d: Buffer) => {
        banner += d;
        const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(banner);
        if (m) resolve(m[1]);
      });
      child.once('exit', (code) => reject(new Error(`exited ${code}: ${banner}`)));
    });
    const listenMs = Math.round(performance.now() - t0);
    const rssStart = rssMb(child.pid!);
    const firstMs = await analyse(url, videos[0]);
    const rssAfter = rssMb(child.pid!);
    // Another video: the same one would come from the analysis cache.
    const secondMs = await analyse(url, videos[1]);
    return { listenMs, firstMs, secondMs, rssStart, rssAfter };
  } finally {
    child.kill('SIGKILL');
    rmSync(data, { recursive: true, force: true });
  }
}

async function measure(args: string[], base: string, videos: [string, string]) {
  const all: Awaited<ReturnType<typeof once>>[] = [];
  for (let i = 0; i < runs; i++) all.push(await once(args, base, videos));
  const best = (k: 'listenMs' | 'firstMs' | 'secondMs') => Math.min(...all.map((r) => r[k]));
  const last = all[all.length - 1];
  return { listen_ms: best('listenMs'), first_analysis_ms: best('firstMs'), second_analysis_ms: best('secondMs'), rss_start_mb: last.rssStart, rss_after_first_mb: last.rssAfter };
}

await buildServer({ ifStale: true });
const base = mkdtempSync(join(tmpdir(), 'vidx-bench-start-'));
try {
  mkdirSync(join(base, 'media'));
  const videos: [string, string] = [join(base, 'media', 'first.mp4'), join(base, 'media', 'second.mp4')];
  await makeVideo(videos[0], 'START FIGURES', 3);
  await makeVideo(videos[1], 'WARM THREAD', 3, {}, 'maroon');
  const compiled = await measure(['lib/main.js'], base, videos);
  const sources = await measure(['--import', 'tsx', 'src/main.ts'], base, videos);
  console.log(JSON.stringify({ date: new Date().toISOString(), runs, compiled, tsx_sources: sources }));
} finally {
  rmSync(base, { recursive: true, force: true });
}
