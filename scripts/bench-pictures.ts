/**
 * Benchmark of search by picture and duplicates (issue 26). Three parts, each on this machine:
 *
 * 1. What fingerprints add to indexing: a 4-minute 1280×720 video analysed whole (no pulled models), against
 *    the extra work: the frame sequence in the scene pass (timed with and without it) and a print per keyframe.
 * 2. An image query at 100,000 episodes: a collection of synthetic items with real-shaped prints (random
 *    hashes, plus a few from real frames), a query picture sent as a multipart POST /search to a vidx on
 *    127.0.0.1; p50 and p99 over the queries, and whether the right moment came first.
 * 3. Duplicates over 10,000 items (2,000 videos of 30 s with 10 fps sequences and 8,000 photos, a tenth of
 *    each copies with bit noise and trims): the pass from scratch, then one more copy indexed (incremental).
 *
 *   npx tsx scripts/bench-pictures.ts [--episodes 100000] [--items 10000] [--queries 200] [--parts 1,2,3]
 *
 * The last line printed is one JSON object.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import sharp from 'sharp';
import { loadConfig } from '../src/config.js';
import { MediaTools } from '../src/media/binaries.js';
import { FileAccess, probeMedia } from '../src/media/index.js';
import { framePrint, type FramePrint } from '../src/media/perceptual.js';
import { detectScenes } from '../src/media/scenes.js';
import { ModelRuntime } from '../src/ml/runtime.js';
import { analyzeFile } from '../src/analysis/pipeline.js';
import type { MediaAnalysis, TimedPrint } from '../src/analysis/types.js';
import { sequenceFps } from '../src/analysis/shots.js';
import { startVidx } from '../src/server.js';
import { lavfiVideo } from '../test/support/picture-media.js';

const { values } = parseArgs({ options: { episodes: { type: 'string', default: '100000' }, items: { type: 'string', default: '10000' }, queries: { type: 'string', default: '200' }, parts: { type: 'string', default: '1,2,3' } } });
const parts = new Set(values.parts.split(',').map(Number));
const KEY = 'vidx_bench_pictures_admin_key_01234567';
const run = promisify(execFile);
const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

let seed = 0x2545f491;
function rnd(): number {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 2 ** 32;
}
const hex = (digits: number) => Array.from({ length: digits }, () => Math.floor(rnd() * 16).toString(16)).join('');
/** A hash with `bits` random bits flipped. */
function flip(h: string, bits: number): string {
  const n = BigInt(`0x${h}`);
  let m = n;
  for (let i = 0; i < bits; i++) m ^= 1n << BigInt(Math.floor(rnd() * h.length * 4));
  return m.toString(16).padStart(h.length, '0');
}
const randomPrint = (): FramePrint => ({ hash: hex(16), detail: hex(64), colour: Array.from({ length: 48 }, () => Math.floor(rnd() * 256)) });

/** A minimal analysis: `episodes` episodes with the given prints (and sequence), a word or two of text. */
function analysisOf(type: 'video' | 'image', duration: number, episodes: number, prints: TimedPrint[], sequence: MediaAnalysis['frameSequence'] = null): MediaAnalysis {
  const len = duration / episodes || 0;
  return {
    type, duration, width: 640, height: 360, language: 'en', title: null, transcript: [], transcriptSource: 'none', screenText: [], visual: [],
    episodes: Array.from({ length: episodes }, (_, i) => ({ index: i, start: i * len, end: type === 'image' ? 0 : (i + 1) * len, audio: [], visual: [], summary: `moment ${i}`, thumbnail: null, thumbnailTime: i * len })),
    summary: 'bench', warnings: [], passageVectors: null, frameVectors: null, framePrints: prints, frameSequence: sequence,
  };
}

/** Part 1: what the sequence and the keyframe prints cost against a whole analysis. */
async function indexingCost(dir: string): Promise<Record<string, number>> {
  const file = join(dir, 'long.mp4');
  await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=s=1280x720:r=25', '-f', 'lavfi', '-i', 'sine=frequency=300', '-t', '240', '-c:v', 'libx264', '-preset', 'veryfast', '-c:a', 'aac', '-shortest', file]);
  // The tools as a server has them: every input passes its file-access rule.
  const tools = new MediaTools({}, new FileAccess({ mediaRoots: [dir], dataDir: join(dir, 'data'), ownDirs: [join(dir, 'data')] }));
  const probe = await probeMedia(file, { tools });
  const models = new ModelRuntime({ modelsDir: join(dir, 'models'), tools });
  const ctx = { models, signal: new AbortController().signal, progress: () => {} };
  const t0 = performance.now();
  const analysis = await analyzeFile({ file, sourcePath: file, title: null, metadata: null, language: 'en', thumbnailDir: join(dir, 'thumbs') }, ctx);
  const whole = performance.now() - t0;
  // The scene pass with and without the sequence, interleaved five times and the fastest of each taken: on a
  // shared machine two runs of one pass differ by more than the sequence costs, and the fastest run is the
  // one least disturbed.
  const plainRuns: number[] = [];
  const sequenceRuns: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t1 = performance.now();
    await detectScenes(file, { probe, tools });
    plainRuns.push(performance.now() - t1);
    const t2 = performance.now();
    await detectScenes(file, { probe, tools, sequenceFps: sequenceFps(probe.durationSec) });
    sequenceRuns.push(performance.now() - t2);
  }
  const plain = Math.min(...plainRuns);
  const withSequence = Math.min(...sequenceRuns);
  const { data, info } = await sharp({ create: { width: 1280, height: 720, channels: 3, background: '#336699' } }).raw().toBuffer({ resolveWithObject: true });
  const frame = { data: new Uint8Array(data), width: info.width, height: info.height };
  const t3 = performance.now();
  for (let i = 0; i < 50; i++) framePrint(frame);
  const perPrint = (performance.now() - t3) / 50;
  const keyframes = analysis.framePrints?.length ?? 0;
  const extra = Math.max(0, withSequence - plain) + perPrint * keyframes;
  return { video_s: 240, analysis_s: round(whole / 1000), scene_pass_s: round(plain / 1000), scene_pass_with_sequence_s: round(withSequence / 1000), print_ms: round(perPrint), keyframes, added_pct: round((100 * extra) / whole, 2) };
}

/** Part 2: image queries over a collection of `episodes` episodes. */
async function imageQueries(dir: string, episodes: number, n: number): Promise<Record<string, number>> {
  const media = join(dir, 'q');
  await run('mkdir', ['-p', media]);
  await lavfiVideo(join(media, 'mandelbrot.mp4'), 'mandelbrot', 20);
  const real: TimedPrint[] = [];
  const shots: string[] = [];
  for (let t = 1; t < 20; t += 2) {
    const png = join(media, `f${t}.png`);
    await run('ffmpeg', ['-v', 'error', '-y', '-ss', String(t), '-i', join(media, 'mandelbrot.mp4'), '-frames:v', '1', png]);
    const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    real.push({ time: t, ...framePrint({ data: new Uint8Array(data), width: info.width, height: info.height }) });
    const shot = join(media, `s${t}.jpg`);
    await sharp(png).resize({ width: 400 }).jpeg({ quality: 70 }).toFile(shot);
    shots.push(shot);
  }
  const vidx = await startVidx(loadConfig({ VIDX_HOST: '127.0.0.1', VIDX_PORT: '0', VIDX_DATA_DIR: join(dir, 'data'), VIDX_LOG: 'silent', VIDX_MEDIA_ROOTS: media, VIDX_ADMIN_KEY: KEY }), { queryEmbedder: null });
  try {
    const at = new Date().toISOString();
    // Admins read every collection: the owner's id does not matter here.
    const pk = vidx.store.collections.insert({ collection_id: 'main', owner: 'bench', name: 'main', description: null, is_public: 0, created_at: at, updated_at: at }).pk;
    const perItem = 10;
    const t0 = performance.now();
    for (let i = 0; i * perItem < episodes; i += 200) {
      vidx.store.db.transaction(() => {
        for (let k = i; k < i + 200 && k * perItem < episodes; k++) {
          const prints = Array.from({ length: perItem }, (_, e) => ({ time: e * 6 + 1, ...randomPrint() }));
          vidx.searchIndex.storeItem(pk, { media_id: `v${k}`, type: 'video', title: `clip ${k}`, src: null, thumbnail: null, duration: 60, additional_metadata: null }, analysisOf('video', 60, perItem, prints), { replace: false });
        }
      })();
    }
    vidx.searchIndex.storeItem(pk, { media_id: 'the-one', type: 'video', title: 'mandelbrot', src: null, thumbnail: null, duration: 20, additional_metadata: null }, analysisOf('video', 20, 10, real), { replace: false });
    const buildSeconds = (performance.now() - t0) / 1000;
    const times: number[] = [];
    let right = 0;
    for (let q = 0; q < n + 10; q++) {
      const file = shots[q % shots.length]!;
      const form = new FormData();
      form.set('body', JSON.stringify({ collection: 'main', image: 'q.jpg', limit: 10 }));
      form.set('file', new Blob([readFileSync(file)]), 'q.jpg');
      const t = performance.now();
      const res = await fetch(`${vidx.url}/search`, { method: 'POST', headers: { 'x-api-key': KEY }, body: form });
      const body = (await res.json()) as { results: { media_id: string }[] };
      if (q >= 10) times.push(performance.now() - t); // the first ten warm the collection's prints
      if (body.results[0]?.media_id === 'the-one') right++;
    }
    return { episodes, prints: episodes + real.length, build_s: round(buildSeconds), p50_ms: round(pct(times, 50)), p99_ms: round(pct(times, 99)), right_first: round(right / (n + 10), 3) };
  } finally {
    await vidx.close();
  }
}

/** Part 3: duplicates from scratch over `items` items, then one more copy. */
async function duplicates(dir: string, items: number): Promise<Record<string, number>> {
  const vidx = await startVidx(loadConfig({ VIDX_HOST: '127.0.0.1', VIDX_PORT: '0', VIDX_DATA_DIR: join(dir, 'dup'), VIDX_LOG: 'silent', VIDX_MEDIA_ROOTS: dir, VIDX_ADMIN_KEY: KEY }), { queryEmbedder: null });
  try {
    const at = new Date().toISOString();
    const pk = vidx.store.collections.insert({ collection_id: 'dups', owner: 'admin', name: 'dups', description: null, is_public: 0, created_at: at, updated_at: at }).pk;
    const videos = Math.round(items / 5);
    const sequences: string[][] = [];
    const store = (mediaId: string, a: MediaAnalysis) => vidx.searchIndex.storeItem(pk, { media_id: mediaId, type: a.type, title: mediaId, src: null, thumbnail: null, duration: a.duration, additional_metadata: null }, a, { replace: false });
    // Storing runs the incremental pass for every item; the from-scratch pass is timed afterwards on the same data.
    const t0 = performance.now();
    vidx.store.db.transaction(() => {
      for (let v = 0; v < videos; v++) {
        let frames: string[];
        if (v % 10 === 9 && sequences.length) {
          // A copy: a trimmed stretch of an earlier video with a bit or two of noise a frame.
          const source = sequences[Math.floor(rnd() * sequences.length)]!;
          const from = Math.floor(rnd() * 60);
          frames = source.slice(from, from + 200).map((h) => flip(h, Math.floor(rnd() * 3)));
        } else {
          frames = [hex(16)];
          for (let f = 1; f < 300; f++) frames.push(flip(frames[f - 1]!, 3));
          sequences.push(frames);
        }
        store(`video-${v}`, analysisOf('video', frames.length / 10, 3, [], { fps: 10, hashes: frames.join('') }));
      }
      const photos: FramePrint[] = [];
      for (let p = 0; p < items - videos; p++) {
        const print = p % 10 === 9 && photos.length ? (() => { const o = photos[Math.floor(rnd() * photos.length)]!; return { hash: flip(o.hash, 1), detail: flip(o.detail, 6), colour: o.colour.map((c) => Math.max(0, Math.min(255, c + Math.round((rnd() - 0.5) * 6)))) }; })() : randomPrint();
        photos.push(print);
        store(`photo-${p}`, analysisOf('image', 0, 1, [{ time: 0, ...print }]));
      }
    })();
    const storeSeconds = (performance.now() - t0) / 1000;
    const t1 = performance.now();
    const rebuilt = vidx.duplicates.rebuild(pk);
    const scratchSeconds = (performance.now() - t1) / 1000;
    const t2 = performance.now();
    const copy = sequences[0]!.slice(30, 230).map((h) => flip(h, 1));
    store('late-copy', analysisOf('video', 20, 3, [], { fps: 10, hashes: copy.join('') }));
    const incrementalMs = performance.now() - t2;
    const groups = vidx.duplicates.groups({ id: 'bench', role: 'admin', name: 'bench' }, 'dups').groups.length;
    return { items, videos, photos: items - videos, store_with_incremental_s: round(storeSeconds), scratch_s: round(scratchSeconds), pairs: rebuilt.pairs, groups, one_more_copy_ms: round(incrementalMs) };
  } finally {
    await vidx.close();
  }
}

const dir = mkdtempSync(join(tmpdir(), 'vidx-bench-pictures-'));
try {
  const cost = parts.has(1) ? await indexingCost(dir) : null;
  if (cost) console.error('indexing', cost);
  const query = parts.has(2) ? await imageQueries(dir, Number(values.episodes), Number(values.queries)) : null;
  if (query) console.error('image query', query);
  const dups = parts.has(3) ? await duplicates(dir, Number(values.items)) : null;
  if (dups) console.error('duplicates', dups);
  console.log(JSON.stringify({ bench: 'pictures', date: new Date().toISOString(), fingerprints_in_indexing: cost, image_query: query, duplicates: dups }));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
