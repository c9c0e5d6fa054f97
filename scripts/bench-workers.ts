/**
 * Benchmark of the job queue (issue 27): one 4-minute benchmark video (30 s slides, speech, subtitles), copied
 * into distinct files (another container comment each, so no analysis is shared through the cache), each indexed
 * into a collection of its own
 * by a vidx started in-process
 *  - with the in-process runner (no VIDX_QUEUE_URL),
 *  - through Redis (a redis-server of its own on a loopback port) with 1 `vidx worker` process,
 *  - and with 2 `vidx worker` processes (VIDX_LOCAL_WORKERS=0 in both: every job goes through the queue).
 * It measures one file's task time alternately in-process and with one worker (`--pairs` times), and, for each
 * file through the queue, what the queue path adds: dispatch (task start to job in Redis), the wait for a
 * worker, the worker's download of the media and its delivery (from BullMQ's job timestamps and the job's
 * return value), against the analysis itself; the throughput of `--files` files in each setting; and the
 * server's own CPU seconds per job with workers (what bounds how many machines one server can feed). The last
 * line printed is one JSON object with a worked estimate for N machines like this one.
 *
 *   npx tsx scripts/bench-workers.ts [--minutes 4] [--files 4] [--pairs 3] [--keep]
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { Queue } from 'bullmq';
import { loadConfig } from '../src/config.js';
import { startVidx, type Vidx } from '../src/server.js';
import { startRedis, type TestRedis } from '../test/support/redis.js';
import { spawnWorker, type TestWorker } from '../test/support/worker.js';
import { makeBenchVideo } from './bench-video.js';
import { median } from './bench-stats.js';

const { values } = parseArgs({
  options: { minutes: { type: 'string', default: '4' }, files: { type: 'string', default: '4' }, pairs: { type: 'string', default: '3' }, keep: { type: 'boolean', default: false } },
});
const minutes = Number(values.minutes);
const exec = promisify(execFile);
const KEY = 'vidx_bench_workers_admin_key_0123456789';
const base = mkdtempSync(join(tmpdir(), 'vidx-bench-workers-'));
const media = join(base, 'media');
mkdirSync(media);
const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d;

/** A vidx with its own data dir, in-process or on a queue with `workers` worker processes. */
interface Setup {
  vidx: Vidx;
  /** The server's queue, read directly (BullMQ's timestamps and return values of its jobs). */
  jobs: Queue | null;
  workers: TestWorker[];
  redis: TestRedis | null;
  call(method: string, path: string, body?: unknown): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

async function setup(name: string, workers: number): Promise<Setup> {
  const redis = workers > 0 ? await startRedis() : null;
  const dataDir = join(base, `data-${name}`);
  const env = { VIDX_HOST: '127.0.0.1', VIDX_PORT: '0', VIDX_DATA_DIR: dataDir, VIDX_LOG: 'silent', VIDX_MEDIA_ROOTS: media, VIDX_ADMIN_KEY: KEY, ...(redis ? { VIDX_QUEUE_URL: redis.url, VIDX_LOCAL_WORKERS: '0' } : {}) };
  const vidx = await startVidx(loadConfig(env));
  const call = async (method: string, path: string, body?: unknown): Promise<Record<string, unknown>> => {
    for (let attempt = 0; ; attempt++) {
      try {
        const res = await fetch(`${vidx.url}${path}`, { method, headers: { 'x-api-key': KEY, 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
        return (await res.json()) as Record<string, unknown>;
      } catch (err) {
        // A kept-alive connection the server closed while idle (ECONNRESET): once more on a new one.
        if (attempt > 0 || !(err instanceof TypeError)) throw err;
      }
    }
  };
  const started: TestWorker[] = [];
  if (redis) {
    const key = (await call('POST', '/keys', { name: 'bench', role: 'worker' })).key as string;
    // The workers' models are the server's: the default models dir of each is empty, like the server's (OCR and VAD).
    for (let i = 0; i < workers; i++) started.push(await spawnWorker({ server: vidx.url, queue: redis.url, key, id: `bench-${i + 1}`, env: { VIDX_WORKER_LOCK_SECONDS: '30', VIDX_LOG: 'silent' } }));
  }
  const { queue } = (await call('GET', '/workers')) as { queue: { name: string; prefix: string } | null };
  const jobs = redis && queue ? new Queue(queue.name, { connection: { url: redis.url }, prefix: queue.prefix }) : null;
  jobs?.on('error', () => {});
  return {
    vidx, jobs, workers: started, redis, call,
    async close() {
      await jobs?.close();
      for (const w of started) await w.stop();
      await vidx.close();
      await redis?.stop();
    },
  };
}

/** Indexes files at once; each task's own seconds (started → finished) and the wall time until the last is done. */
async function indexAll(s: Setup, files: string[]): Promise<{ task_s: number[]; wall_s: number; queue_s: number[]; analysis_s: number[] }> {
  const t0 = performance.now();
  const ids: string[] = [];
  for (const f of files) {
    // A collection per file: the copies are the same video, and storing one beside its copies would add
    // the duplicate search's comparison (docs/search.md), which is not what this measures.
    const collection = `bench-${++collections}`;
    await s.call('POST', '/collections', { collection_id: collection, name: collection });
    ids.push((await s.call('POST', '/index', { collection, video: { path: f } })).task_id as string);
  }
  const task_s: number[] = [];
  const parts: { queue_s: number; analysis_s: number }[] = [];
  for (const id of ids) {
    for (;;) {
      const t = await s.call('GET', `/tasks/${id}`);
      if (t.status === 'failed') throw new Error(`task failed: ${JSON.stringify(t.error)}`);
      if (t.status === 'completed') {
        task_s.push((Date.parse(t.finished_at as string) - Date.parse(t.started_at as string)) / 1000);
        if (s.jobs) parts.push(await queuePart(s.jobs, id, Date.parse(t.started_at as string)));
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return { task_s, wall_s: (performance.now() - t0) / 1000, queue_s: parts.map((p) => p.queue_s), analysis_s: parts.map((p) => p.analysis_s) };
}

/**
 * What the queue path added to a task: from its start to its job in Redis (this includes the fingerprint and
 * cache key the in-process path computes too, so it errs high), the wait for a worker, the worker's download
 * and its delivery; and the analysis itself.
 */
async function queuePart(jobs: Queue, taskId: string, startedAt: number): Promise<{ queue_s: number; analysis_s: number }> {
  const job = (await jobs.getJobs(['completed'])).find((j) => j.id?.startsWith(taskId));
  if (!job?.processedOn) throw new Error(`no completed job of task ${taskId}`);
  const r = job.returnvalue as { fetch_s: number; analysis_s: number; deliver_s: number };
  return { queue_s: (job.timestamp - startedAt) / 1000 + (job.processedOn - job.timestamp) / 1000 + r.fetch_s + r.deliver_s, analysis_s: r.analysis_s };
}

let copies = 0;
let collections = 0;
/** Distinct copies of the video (another comment in the container: another fingerprint, so no analysis is shared). */
async function copiesOf(video: string, n: number): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const file = join(media, `copy-${++copies}.mp4`);
    // Plain ffmpeg, not runTool: the servers running in this process hold their file-access rules over runTool.
    await exec('ffmpeg', ['-hide_banner', '-nostdin', '-v', 'error', '-y', '-i', video, '-map', '0', '-c', 'copy', '-metadata', `comment=copy ${copies}`, file]);
    out.push(file);
  }
  return out;
}

try {
  const video = await makeBenchVideo(base, minutes, false);
  const load = [loadavg()[0]];
  const inprocess = await setup('inprocess', 0);
  const oneWorker = await setup('queue-1', 1);
  // One file at a time, alternately, so the machine's other load falls on both alike.
  const single = { inprocess: [] as number[], queue: [] as number[], queue_part_s: [] as number[], analysis_s: [] as number[] };
  for (let p = 0; p < Number(values.pairs); p++) {
    single.inprocess.push(...(await indexAll(inprocess, await copiesOf(video, 1))).task_s);
    const q = await indexAll(oneWorker, await copiesOf(video, 1));
    single.queue.push(...q.task_s);
    single.queue_part_s.push(...q.queue_s);
    single.analysis_s.push(...q.analysis_s);
  }
  const files = Number(values.files);
  const tInprocess = await indexAll(inprocess, await copiesOf(video, files));
  await inprocess.close();
  const cpuBefore = process.cpuUsage();
  const tOne = await indexAll(oneWorker, await copiesOf(video, files));
  const cpu = process.cpuUsage(cpuBefore);
  await oneWorker.close();
  const twoWorkers = await setup('queue-2', 2);
  const tTwo = await indexAll(twoWorkers, await copiesOf(video, files));
  await twoWorkers.close();
  load.push(loadavg()[0]);

  const perHour = (wall: number) => round((files * minutes) / (wall / 3600) / 60, 2);
  const workerS = median(single.queue);
  // The server's CPU per job with workers: fingerprint, serving the media, the commit, the HTTP and Redis round trips.
  const serverCpuS = (cpu.user + cpu.system) / 1e6 / files;
  const videoHoursPerMachineHour = perHour(tOne.wall_s);
  const archiveHours = 10_000;
  const estimate = [1, 2, 4, 8, 16].map((n) => ({
    machines: n,
    video_hours_per_hour: round(n * videoHoursPerMachineHour),
    days_for_10000_hours: round(archiveHours / (n * videoHoursPerMachineHour) / 24, 1),
    server_cpu_share: round((n * serverCpuS) / workerS, 3),
  }));
  console.log(JSON.stringify({
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, model: cpus()[0]?.model ?? 'unknown', load_avg_1m: load.map((l) => round(l)) },
    video_minutes: minutes,
    single_file_task_s: { inprocess: single.inprocess.map((x) => round(x)), one_worker: single.queue.map((x) => round(x)) },
    // What the queue path adds (dispatch, wait, download, delivery), per file, against the analysis on the worker.
    queue_part_s: single.queue_part_s.map((x) => round(x)),
    worker_analysis_s: single.analysis_s.map((x) => round(x)),
    queue_overhead_pct: round((100 * median(single.queue_part_s)) / median(single.analysis_s), 1),
    // The plain difference of the medians: on a shared machine mostly the other load's.
    task_time_difference_pct: round((100 * (median(single.queue) - median(single.inprocess))) / median(single.inprocess), 1),
    throughput_video_hours_per_hour: { files, inprocess: perHour(tInprocess.wall_s), one_worker: videoHoursPerMachineHour, two_workers_same_machine: perHour(tTwo.wall_s) },
    wall_s: { inprocess: round(tInprocess.wall_s), one_worker: round(tOne.wall_s), two_workers: round(tTwo.wall_s) },
    server_cpu_s_per_job: round(serverCpuS, 3),
    estimate_n_machines: estimate,
  }));
} finally {
  if (!values.keep) rmSync(base, { recursive: true, force: true });
}
