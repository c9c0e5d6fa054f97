/**
 * Benchmark of the analysis pipeline: makes a 10-minute 640x360 video with 20 slides, English speech
 * and an embedded subtitle track, analyses it with the models this machine has, and prints per-stage
 * seconds, seconds spent inside each model, compute seconds per minute of video, peak RSS and the time
 * ffmpeg alone takes to decode it, and the thumbnails it wrote (episodes' and pictures', with their size).
 * The last line printed is one JSON object.
 *
 * `--asr` makes the speech dense (about 23 s of every 30 s slide, ~120 words a minute) and leaves the
 * subtitle track out, so Whisper transcribes it: the full-pack case. Models come from VIDX_MODELS_DIR
 * (for the stand-ins: `npx tsx scripts/make-standin-models.ts` first, then VIDX_MODELS_DIR=.standins/models).
 *
 *   npx tsx scripts/bench-index.ts [--minutes 10] [--asr] [--keep]
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runTool } from '../src/media/run.js';
import { loadavg } from 'node:os';
import { ModelRuntime } from '../src/ml/runtime.js';
import { analyzeFile } from '../src/analysis/pipeline.js';
import { makeBenchVideo } from './bench-video.js';

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const v = await fn();
  return [v, (performance.now() - t0) / 1000];
}

/** Seconds spent inside each model's calls, summed over the run. */
const inside: Record<string, number> = {};

function timeMethods<T extends object>(target: T, label: string, methods: string[]): T {
  return new Proxy(target, {
    get(obj, key, receiver) {
      const value = Reflect.get(obj, key, receiver) as unknown;
      if (typeof key !== 'string' || !methods.includes(key) || typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        const t0 = performance.now();
        try {
          return await (value as (...a: unknown[]) => Promise<unknown>).apply(obj, args);
        } finally {
          inside[`${label}.${key}`] = (inside[`${label}.${key}`] ?? 0) + (performance.now() - t0) / 1000;
        }
      };
    },
  });
}

/** The runtime with every model call timed (loading included in the first call). */
class TimedRuntime extends ModelRuntime {
  override ocr() {
    return timeMethods(super.ocr(), 'ocr', ['recognize']);
  }
  override async transcriber() {
    const t = await super.transcriber();
    return t && timeMethods(t, 'whisper', ['transcribe']);
  }
  override async imageText() {
    const e = await super.imageText();
    return e && timeMethods(e, 'clip', ['embedImages', 'embedTexts']);
  }
  override async textEmbedder() {
    const e = await super.textEmbedder();
    return e && timeMethods(e, 'e5', ['embedPassages']);
  }
}

/** How many episode thumbnails (ep-*) and pictures (pic-*) a folder holds, and their kilobytes. */
function thumbnailFiles(folder: string): Record<string, { files: number; kb: number }> {
  const out: Record<string, { files: number; bytes: number }> = { ep: { files: 0, bytes: 0 }, pic: { files: 0, bytes: 0 } };
  for (const name of readdirSync(folder)) {
    const kind = out[name.split('-')[0]!];
    if (!kind) continue;
    kind.files++;
    kind.bytes += statSync(join(folder, name)).size;
  }
  return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, { files: v.files, kb: Math.round(v.bytes / 1024) }]));
}

const { values } = parseArgs({
  options: { minutes: { type: 'string', default: '10' }, keep: { type: 'boolean', default: false }, asr: { type: 'boolean', default: false } },
});
const minutes = Number(values.minutes);
const dir = mkdtempSync(join(tmpdir(), 'vidx-bench-index-'));
try {
  const [file, makeSec] = await timed(() => makeBenchVideo(dir, minutes, values.asr));
  const loadBefore = loadavg()[0];
  const [, decodeSec] = await timed(() => runTool('ffmpeg', ['-hide_banner', '-nostdin', '-v', 'error', '-i', file, '-f', 'null', '-']));
  const models = new TimedRuntime({ modelsDir: process.env.VIDX_MODELS_DIR ?? join(dir, 'models') });
  const stages: Record<string, number> = {};
  let stage = 'start';
  let since = performance.now();
  const [analysis, totalSec] = await timed(() =>
    analyzeFile(
      { file, sourcePath: null, title: 'Benchmark', metadata: null, language: 'en', thumbnailDir: join(dir, 'thumbs') },
      {
        models,
        signal: new AbortController().signal,
        progress: (_f, name) => {
          if (name === stage) return;
          const now = performance.now();
          stages[stage] = (stages[stage] ?? 0) + (now - since) / 1000;
          stage = name;
          since = now;
        },
      },
    ),
  );
  stages[stage] = (stages[stage] ?? 0) + (performance.now() - since) / 1000;
  const round = (n: number) => Math.round(n * 100) / 100;
  const result = {
    video_minutes: minutes,
    asr: values.asr,
    transcript_source: analysis.transcriptSource,
    make_video_s: round(makeSec),
    ffmpeg_decode_s: round(decodeSec),
    analyze_s: round(totalSec),
    compute_s_per_video_min: round(totalSec / minutes),
    realtime_factor: round(totalSec / (minutes * 60)),
    stages_s: Object.fromEntries(Object.entries(stages).map(([k, v]) => [k, round(v)])),
    inside_models_s: Object.fromEntries(Object.entries(inside).map(([k, v]) => [k, round(v)])),
    episodes: analysis.episodes.length,
    transcript_segments: analysis.transcript.length,
    screen_text_entries: analysis.screenText.length,
    // What the thumbnails cost on disk: one per episode, and the pictures a search result picks from.
    thumbnails: thumbnailFiles(join(dir, 'thumbs')),
    capabilities: Object.fromEntries(Object.entries(models.capabilities()).map(([k, v]) => [k, v.available])),
    peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
    cpus: (await import('node:os')).cpus().length,
    // A shared machine inflates every figure above; the 1-minute load average before and after says by how much.
    load_avg_1m: [round(loadBefore), round(loadavg()[0])],
  };
  console.log(JSON.stringify(result));
} finally {
  if (!values.keep) rmSync(dir, { recursive: true, force: true });
}
