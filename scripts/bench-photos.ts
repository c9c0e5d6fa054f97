/**
 * Benchmark of indexing a folder of photos (issue 48): N distinct phone-sized JPEGs (4032 × 3024 by default,
 * made from skimage's colour photos: each another crop, tint and brightness, one in ten with a sign of
 * words on it) are bound as a folder to a collection of a vidx server started as its own process
 * (`node lib/main.js`, the production path, with a temp data dir and no pulled models), and scanned. Prints
 * photos a minute, and the server process's peak resident memory (VmHWM: its threads included).
 * The photos are kept in test/.tmp/bench-photos-<side>-<n> between runs: making them takes longer than
 * indexing them. lib/ is built first when stale. BENCH_CPU_PROF=<dir> writes the server's CPU profiles there
 * (one per thread). MALLOC_ARENA_MAX, GLIBC_TUNABLES, VIDX_SEARCH_THREADS and VIDX_TASK_CONCURRENCY in the
 * environment reach the server (allocator and thread experiments).
 *
 *   npx tsx scripts/bench-photos.ts [--photos 1000] [--side 4032] [--keep-data]
 *
 * The last line printed is one JSON object.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { buildServer } from './build-server.js';

const { values } = parseArgs({ options: { photos: { type: 'string', default: '1000' }, side: { type: 'string', default: '4032' }, 'keep-data': { type: 'boolean', default: false } } });
const count = Number(values.photos);
const width = Number(values.side);
const height = Math.round((width * 3) / 4);
const ROOT = new URL('..', import.meta.url).pathname;
const SKIMAGE = '/usr/lib/python3/dist-packages/skimage/data';
const SOURCES = ['astronaut.png', 'chelsea.png', 'coffee.png', 'motorcycle_left.png', 'rocket.jpg', 'retina.jpg', 'color.png', 'hubble_deep_field.jpg'].filter((f) => existsSync(join(SKIMAGE, f)));
const KEY = 'vidx_bench_photos_admin_key_0123456789';
const WORDS = ['BAKERY OPEN', 'PLATFORM 9', 'EXIT', 'HOTEL LISBOA', 'MARKET STREET', 'NO PARKING', 'CAFE CENTRAL', 'MUSEUM'];

/** A repeatable random number generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Photo `i`: a crop of one source, tinted and lit its own way, at width × height; a sign on every tenth. */
async function makePhoto(i: number, out: string): Promise<void> {
  const rand = random(i + 1);
  const src = sharp(join(SKIMAGE, SOURCES[i % SOURCES.length]!)).removeAlpha();
  const meta = await src.metadata();
  const cw = Math.max(64, Math.round(meta.width! * (0.5 + 0.5 * rand())));
  const ch = Math.max(48, Math.round(meta.height! * (0.5 + 0.5 * rand())));
  const left = Math.floor(rand() * (meta.width! - cw + 1));
  const top = Math.floor(rand() * (meta.height! - ch + 1));
  let img = src
    .extract({ left, top, width: cw, height: ch })
    .resize(width, height, { fit: 'fill', kernel: 'cubic' })
    .modulate({ brightness: 0.7 + 0.6 * rand(), saturation: 0.6 + 0.8 * rand(), hue: Math.floor(rand() * 360) });
  if (i % 10 === 0) {
    const word = WORDS[(i / 10) % WORDS.length]!;
    const size = Math.round(height / 12);
    const svg = `<svg width="${width}" height="${height}"><rect x="${width * 0.2}" y="${height * 0.35}" width="${width * 0.6}" height="${size * 2}" fill="white"/><text x="${width / 2}" y="${height * 0.35 + size * 1.35}" font-family="DejaVu Sans" font-weight="bold" font-size="${size}" text-anchor="middle" fill="black">${word}</text></svg>`;
    img = sharp(await img.toBuffer()).composite([{ input: Buffer.from(svg) }]);
  }
  const tmp = `${out}.tmp`;
  await img.jpeg({ quality: 88, mozjpeg: false }).toFile(tmp);
  renameSync(tmp, out);
}

/** The photos, made once per size and count (two at a time: sharp's own threads use the cores). */
async function photos(): Promise<string> {
  const dir = join(ROOT, 'test', '.tmp', `bench-photos-${width}-${count}`);
  mkdirSync(dir, { recursive: true });
  const missing = Array.from({ length: count }, (_, i) => i).filter((i) => !existsSync(join(dir, `IMG_${String(i).padStart(5, '0')}.jpg`)));
  if (missing.length) process.stderr.write(`making ${missing.length} photos in ${dir}\n`);
  for (let k = 0; k < missing.length; k += 2) {
    await Promise.all(missing.slice(k, k + 2).map((i) => makePhoto(i, join(dir, `IMG_${String(i).padStart(5, '0')}.jpg`))));
  }
  return dir;
}

/** The server process's peak resident memory so far (MB), from /proc. */
function peakRssMb(pid: number): number {
  const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Math.round(Number(hwm) / 1024);
}

async function main(): Promise<void> {
  await buildServer({ ifStale: true });
  const folder = await photos();
  const base = mkdtempSync(join(tmpdir(), 'vidx-bench-photos-'));
  const prof = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const server = spawn(process.execPath, [...prof, join(ROOT, 'lib', 'main.js')], {
    env: { PATH: process.env.PATH, ...(process.env.MALLOC_ARENA_MAX ? { MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX } : {}), ...(process.env.GLIBC_TUNABLES ? { GLIBC_TUNABLES: process.env.GLIBC_TUNABLES } : {}), ...(process.env.VIDX_SEARCH_THREADS ? { VIDX_SEARCH_THREADS: process.env.VIDX_SEARCH_THREADS } : {}), ...(process.env.VIDX_TASK_CONCURRENCY ? { VIDX_TASK_CONCURRENCY: process.env.VIDX_TASK_CONCURRENCY } : {}), HOME: base, VIDX_HOST: '127.0.0.1', VIDX_PORT: '0', VIDX_DATA_DIR: join(base, 'data'), VIDX_ADMIN_KEY: KEY, VIDX_MEDIA_ROOTS: folder, VIDX_LOG: 'info', VIDX_HUB_URL: 'http://127.0.0.1:9/' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  server.stdout.on('data', (d: Buffer) => (out += d));
  server.stderr.on('data', (d: Buffer) => (out += d));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setInterval(() => {
        const hit = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
        if (hit) {
          clearInterval(timer);
          resolve(hit);
        }
      }, 50);
      server.once('exit', (code) => reject(new Error(`server exited ${code}: ${out.slice(-2000)}`)));
    });
    const call = async (method: string, path: string, body?: unknown) =>
      (await (await fetch(`${url}${path}`, { method, headers: { 'x-api-key': KEY, 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined })).json()) as Record<string, unknown>;
    await call('POST', '/collections', { collection_id: 'photos', name: 'Photos' });
    const rssAtStart = peakRssMb(server.pid!);
    const bound = await call('POST', '/collections/photos/folders', { path: folder, watch: false });
    if (typeof bound.scan_task_id !== 'string') throw new Error(`folder: ${JSON.stringify(bound)}`);
    let task: Record<string, unknown>;
    for (;;) {
      task = await call('GET', `/tasks/${bound.scan_task_id}`);
      if (task.status === 'completed' || task.status === 'failed') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    if (task.status === 'failed') throw new Error(`scan failed: ${JSON.stringify(task.error)}`);
    const seconds = (Date.parse(task.finished_at as string) - Date.parse(task.started_at as string)) / 1000;
    const items = ((await call('GET', '/collections/photos/items?limit=1')) as { total?: number }).total ?? null;
    const withText = ((await call('POST', '/search', { query: 'bakery', collection: 'photos', limit: 50 })) as { results?: unknown[] }).results?.length ?? 0;
    console.log(JSON.stringify({
      bench: 'photos', date: new Date().toISOString(), machine: { cpus: cpus().length, model: cpus()[0]?.model ?? 'unknown', load_avg_1m: Math.round(loadavg()[0]! * 100) / 100 },
      photos: count, size: `${width}x${height}`, folder_files: readdirSync(folder).length, items,
      scan_s: Math.round(seconds * 10) / 10, photos_per_min: Math.round((count / seconds) * 60),
      found_by_sign_words: withText, peak_rss_mb: peakRssMb(server.pid!), rss_at_start_mb: rssAtStart,
    }));
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    if (!values['keep-data']) rmSync(base, { recursive: true, force: true });
  }
}

await main();
