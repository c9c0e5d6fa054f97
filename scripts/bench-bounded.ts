/**
 * Benchmark of bounded work (issue 43): what one owner's hostile inputs make the server do, measured while a
 * /health poller (every 50 ms) and a memory sampler run against a vidx on 127.0.0.1.
 *
 * 1. Alone: owner B indexes a 10-second video; its time.
 * 2. Owner A indexes a video with a 50 MB sidecar subtitle file and an MKV with 32,000 embedded cues; right
 *    after, owner B indexes another 10-second video: B's time against its time alone.
 * 3. A cancel: owner A indexes a 2-minute 1280×720 video; once it runs, DELETE /tasks/{id}: how long until the
 *    answer, and whether its ffmpeg is gone.
 * 4. A gzip bomb (a 300 MB file of zeros as a model's file, a few hundred KB gzipped) sent to POST /models/import.
 *
 *   npx tsx scripts/bench-bounded.ts [--keep]
 *
 * The last line printed is one JSON object: /health p50/p99/max over the whole run, the server's peak RSS,
 * B's time beside A's inputs against alone, the cancel's time, the bomb's answer and time.
 */
import { execFile, execFileSync } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { parseArgs, promisify } from 'node:util';
import { createGzip } from 'node:zlib';
import tar from 'tar-stream';
import { loadConfig } from '../src/config.js';
import { startVidx } from '../src/server.js';

const { values } = parseArgs({ options: { keep: { type: 'boolean', default: false } } });
const run = promisify(execFile);
const ADMIN = 'vidx_bench_bounded_admin_key_0123456789';
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? 0;
const round = (n: number) => Math.round(n * 10) / 10;
const ffmpeg = (...args: string[]) => run('ffmpeg', ['-hide_banner', '-v', 'error', '-y', ...args], { maxBuffer: 1e8 });

/** Writes an SRT file of `n` cues spread over `seconds`, each `chars` long, in pieces (the benchmark shares the server's process and memory). */
async function writeSrt(path: string, n: number, seconds: number, chars: number): Promise<void> {
  const t = (s: number) => new Date(s * 1000).toISOString().slice(11, 23).replace('.', ',');
  const filler = 'words of a line that goes on and on '.repeat(Math.ceil(chars / 36)).slice(0, chars);
  const out = createWriteStream(path);
  for (let i = 0; i < n; i++) {
    if (!out.write(`${i + 1}\n${t((i * seconds) / n)} --> ${t(((i + 0.9) * seconds) / n)}\nLine ${i}: ${filler}\n\n`)) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
}

async function makeInputs(dir: string): Promise<void> {
  const clip = (out: string, seconds: number, size = '640x360', extra: string[] = []) =>
    ffmpeg('-f', 'lavfi', '-i', `testsrc2=s=${size}:r=25`, '-f', 'lavfi', '-i', 'sine=f=330', '-t', String(seconds), ...extra, '-c:v', 'libx264', '-preset', 'veryfast', '-c:a', 'aac', '-shortest', out);
  // B's two clips differ in a tag alone: the same work, but not one analysis cache entry.
  await Promise.all([clip(join(dir, 'b-alone.mp4'), 10, '640x360', ['-metadata', 'title=alone']), clip(join(dir, 'b-beside.mp4'), 10, '640x360', ['-metadata', 'title=beside']), clip(join(dir, 'sidecar.mp4'), 60), clip(join(dir, 'long.mp4'), 120, '1280x720')]);
  // About 50 MB of sidecar: 100,000 cues of 500 characters over a minute.
  await writeSrt(join(dir, 'sidecar.srt'), 100_000, 60, 500);
  await writeSrt(join(dir, 'cues.srt'), 32_000, 60, 40);
  await ffmpeg('-i', join(dir, 'sidecar.mp4'), '-i', join(dir, 'cues.srt'), '-map', '0', '-map', '1', '-c', 'copy', '-c:s', 'srt', join(dir, 'cues.mkv'));
}

/** A tar.gz holding one model file of `size` zeros. */
async function bomb(out: string, name: string, size: number): Promise<void> {
  const pack = tar.pack();
  const written = pipeline(pack, createGzip({ level: 9 }), createWriteStream(out));
  let done!: () => void;
  const finished = new Promise<void>((r) => (done = r));
  const entry = pack.entry({ name, size }, () => done());
  const block = Buffer.alloc(1024 * 1024);
  for (let left = size; left > 0; left -= block.length) if (!entry.write(left >= block.length ? block : block.subarray(0, left))) await new Promise((r) => entry.once('drain', r));
  entry.end();
  await finished;
  pack.finalize();
  await written;
}

const base = mkdtempSync(join(tmpdir(), 'vidx-bench-bounded-'));
const media = join(base, 'media');
mkdirSync(media);
try {
  await makeInputs(media);
  // As whisper-tiny's largest file, so the import writes it until it passes its bound.
  const tiny = (JSON.parse(readFileSync(new URL('../models/manifest.json', import.meta.url), 'utf8')) as { models: { id: string; files: { path: string; approxSize?: number }[] }[] }).models.find((m) => m.id === 'whisper-tiny')!;
  const largest = tiny.files.reduce((x, f) => ((f.approxSize ?? 0) > (x.approxSize ?? 0) ? f : x));
  await bomb(join(base, 'bomb.tar.gz'), largest.path, 300 * 1024 * 1024);
  const vidx = await startVidx(loadConfig({ VIDX_HOST: '127.0.0.1', VIDX_PORT: '0', VIDX_DATA_DIR: join(base, 'data'), VIDX_LOG: 'silent', VIDX_MEDIA_ROOTS: media, VIDX_ADMIN_KEY: ADMIN }), { queryEmbedder: null });
  const health: number[] = [];
  let rssPeak = 0;
  let polling = true;
  const poller = (async () => {
    while (polling) {
      const t0 = performance.now();
      await fetch(`${vidx.url}/health`).then((r) => r.arrayBuffer());
      health.push(performance.now() - t0);
      rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  try {
    const call = async (key: string, method: string, path: string, body?: unknown) => {
      const r = await fetch(`${vidx.url}${path}`, { method, headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
      return { status: r.status, body: (await r.json()) as Record<string, unknown> };
    };
    const newKey = async (name: string) => (await call(ADMIN, 'POST', '/keys', { name, role: 'user' })).body.key as string;
    const [a, b] = [await newKey('a'), await newKey('b')];
    await call(a, 'POST', '/collections', { collection_id: 'a', name: 'A' });
    await call(b, 'POST', '/collections', { collection_id: 'b', name: 'B' });
    const index = async (key: string, collection: string, file: string) => (await call(key, 'POST', '/index', { collection, video: { path: join(media, file), media_id: file.replace(/\W/g, '-') } })).body.task_id as string;
    const settled = async (key: string, id: string) => {
      for (;;) {
        const t = (await call(key, 'GET', `/tasks/${id}`)).body;
        if (t.status === 'completed' || t.status === 'failed') return t;
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    const timed = async (key: string, collection: string, file: string) => {
      const t0 = performance.now();
      const t = await settled(key, await index(key, collection, file));
      if (t.status !== 'completed') throw new Error(`${file}: ${JSON.stringify(t.error)}`);
      return (performance.now() - t0) / 1000;
    };

    const alone = await timed(b, 'b', 'b-alone.mp4');
    const t0 = performance.now();
    const hostile = [await index(a, 'a', 'sidecar.mp4'), await index(a, 'a', 'cues.mkv')];
    const beside = await timed(b, 'b', 'b-beside.mp4');
    const hostileDone = await Promise.all(hostile.map((id) => settled(a, id)));
    const hostileSeconds = (performance.now() - t0) / 1000;

    const long = await index(a, 'a', 'long.mp4');
    while ((await call(a, 'GET', `/tasks/${long}`)).body.status !== 'running') await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 3000));
    const c0 = performance.now();
    const del = await call(a, 'DELETE', `/tasks/${long}`);
    const cancelMs = performance.now() - c0;
    // The server runs in this process: its tools are this process's children.
    const ffmpegLeft = Number(execFileSync('sh', ['-c', `pgrep -c -P ${process.pid} ffmpeg || true`]).toString().trim() || 0);

    const form = new FormData();
    form.append('body', JSON.stringify({ archive: 'bomb.tar.gz', model_id: 'whisper-tiny' }));
    form.append('file', new Blob([new Uint8Array(readFileSync(join(base, 'bomb.tar.gz')))]), 'bomb.tar.gz');
    const b0 = performance.now();
    const bombAnswer = await fetch(`${vidx.url}/models/import`, { method: 'POST', headers: { 'x-api-key': ADMIN }, body: form });
    const bombMs = performance.now() - b0;
    const bombBody = (await bombAnswer.json()) as { code?: string };

    polling = false;
    await poller;
    console.log(
      JSON.stringify({
        bench: 'bounded',
        health_p50_ms: round(pct(health, 50)),
        health_p99_ms: round(pct(health, 99)),
        health_max_ms: round(Math.max(...health)),
        health_polls: health.length,
        rss_peak_mb: Math.round(rssPeak / 1e6),
        other_owner_alone_s: round(alone),
        other_owner_beside_s: round(beside),
        other_owner_ratio: round(beside / alone),
        hostile_s: round(hostileSeconds),
        hostile_status: hostileDone.map((t) => t.status),
        hostile_warnings: hostileDone.map((t) => ((t.result as { warnings?: string[] } | null)?.warnings ?? []).filter((w) => w.startsWith('subtitles cut')).length),
        cancel_ms: Math.round(cancelMs),
        cancel_status: del.status,
        cancel_answer: (del.body as { status?: string; error?: { code?: string } }).error?.code ?? null,
        ffmpeg_left_after_cancel: ffmpegLeft,
        bomb_status: bombAnswer.status,
        bomb_code: bombBody.code ?? null,
        bomb_ms: Math.round(bombMs),
      }),
    );
  } finally {
    polling = false;
    await vidx.close();
  }
} finally {
  if (!values.keep) rmSync(base, { recursive: true, force: true });
  else console.error(`kept ${base}`);
}
