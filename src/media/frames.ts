import type { MediaTools } from './binaries.js';
import { basename } from 'node:path';
import { MediaError } from './errors.js';
import { readRawFrames } from './frame-reader.js';
import { scaledSize, scaleFilter } from './geometry.js';
import { probeMedia, type MediaProbe } from './probe.js';
import { fileUrl, spawnTool } from './run.js';
import { waitingBatches } from '../tools/waiting-batches.js';

/** One decoded picture as packed RGB (3 bytes per pixel, rows top to bottom). */
export interface VideoFrame {
  data: Uint8Array;
  width: number;
  height: number;
  /** The requested time (after clamping into the video); the picture is the first frame shown at or after it. */
  time: number;
}

/** Options for {@link extractFrames}. */
export interface ExtractFramesOptions {
  signal?: AbortSignal;
  /** The server's tools (FFMPEG_PATH …); default: npm packages, then PATH. */
  tools?: MediaTools;
  /** Frames wider than this are scaled down (aspect kept, never upscaled). Default 1280. */
  maxWidth?: number;
  /** Reuse an earlier probe instead of running ffprobe again. */
  probe?: MediaProbe;
}

/** Targets closer together than this are decoded in one pass instead of one seek each. */
const CLUSTER_GAP_SEC = 4;
/**
 * A pass is worth starting for two targets already: a second seek is a second ffmpeg start (~130 ms for
 * Debian's, which loads 200 libraries) besides its decode, more than decoding up to 4 s of a short clip.
 */
const MIN_PASS_TARGETS = 2;

/** How a group of timestamps is decoded. */
export interface ExtractionStep {
  mode: 'seek' | 'pass';
  times: number[];
}

/**
 * Groups sorted, unique timestamps: runs of at least 2 targets each within 4 s of the previous are
 * decoded in one pass over their span (a seek costs decoding from the previous keyframe, so dense
 * targets would decode the same stretch again and again); everything else gets one fast input seek
 * per timestamp (`-ss` before `-i`, which decodes only from the nearest keyframe).
 * @example
 * planExtraction([1, 2, 3, 60]); // [{ mode: 'pass', times: [1, 2, 3] }, { mode: 'seek', times: [60] }]
 * planExtraction([0.5, 2]); // [{ mode: 'pass', times: [0.5, 2] }]
 */
export function planExtraction(times: number[]): ExtractionStep[] {
  const steps: ExtractionStep[] = [];
  let run: number[] = [];
  const flush = (): void => {
    if (run.length >= MIN_PASS_TARGETS) steps.push({ mode: 'pass', times: run });
    else for (const t of run) steps.push({ mode: 'seek', times: [t] });
    run = [];
  };
  for (const t of times) {
    if (run.length && t - run[run.length - 1] > CLUSTER_GAP_SEC) flush();
    run.push(t);
  }
  flush();
  return steps;
}

/** showinfo's per-frame line; pts_time is seconds from where decoding started (the -ss point). */
const SHOWINFO = /\[Parsed_showinfo_\d+ @ [^\]]+\] n:\s*\d+\s+pts:\s*-?\d+\s+pts_time:(-?[\d.e+-]+)/;

interface Ctx {
  file: string;
  probe: MediaProbe & { video: NonNullable<MediaProbe['video']> };
  size: { width: number; height: number };
  signal?: AbortSignal;
  tools?: MediaTools;
  /** Seconds to start decoding before a target; raised once a seek in this file is seen to land late. */
  preroll: number;
}

/** Input options: `-ss` (and `-t`) before `-i` so ffmpeg seeks and stops reading instead of decoding everything. */
function baseArgs(ctx: Ctx, seek: number, span?: number): string[] {
  const limit = span === undefined ? [] : ['-t', span.toFixed(3)];
  return ['-hide_banner', '-nostdin', '-nostats', '-ss', seek.toFixed(3), ...limit, '-i', fileUrl(ctx.file), '-map', `0:${ctx.probe.video.index}`, '-an', '-sn', '-dn'];
}

/** Decodes from `seek` for up to `span` seconds and returns the last frame, for targets near the end. */
async function lastFrameBefore(ctx: Ctx, time: number): Promise<Uint8Array | undefined> {
  const seek = Math.max(0, time - 3);
  const args = [...baseArgs(ctx, seek, time - seek + 0.001), '-v', 'error', '-vf', scaleFilter(ctx.size), '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'];
  const proc = spawnTool('ffmpeg', args, { signal: ctx.signal, tools: ctx.tools });
  try {
    let last: Uint8Array | undefined;
    for await (const f of readRawFrames(proc.stdout, ctx.size.width * ctx.size.height * 3)) last = f;
    await proc.done;
    return last;
  } finally {
    proc.kill();
  }
}

/**
 * The first frame at or after `time`, decoding from `preroll` seconds before it. `at` is where that
 * frame really is (from showinfo), so the caller can tell when the seek landed too late.
 */
async function firstFrameFrom(ctx: Ctx, time: number, preroll: number): Promise<{ data: Uint8Array; at: number } | undefined> {
  const seek = Math.max(0, time - preroll);
  let at: number | undefined;
  const onStderrLine = (line: string): void => {
    const m = SHOWINFO.exec(line);
    if (m && at === undefined) at = seek + Number(m[1]);
  };
  const vf = `select='gte(t,${(time - seek - 0.0005).toFixed(4)})',${scaleFilter(ctx.size)},showinfo`;
  const args = [...baseArgs(ctx, seek), '-v', 'info', '-frames:v', '1', '-vf', vf, '-fps_mode', 'passthrough', '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'];
  const proc = spawnTool('ffmpeg', args, { signal: ctx.signal, onStderrLine, tools: ctx.tools });
  let data: Uint8Array | undefined;
  try {
    for await (const f of readRawFrames(proc.stdout, ctx.size.width * ctx.size.height * 3)) data ??= f;
    await proc.done;
  } finally {
    proc.kill();
  }
  return data ? { data, at: at ?? time } : undefined;
}

/**
 * One frame by fast input seek. Indexed containers (MP4, MKV, WebM) land on the keyframe before
 * `time`, so the first try is exact. Unindexed ones (MPEG-TS/PS, raw streams) can land after a
 * keyframe past `time`; when the frame found is later than expected, decoding restarts further back
 * (3 s, 15 s, then from the start), stopping early once a retry finds the same frame (a real gap in
 * a variable-frame-rate video, not a bad seek).
 */
async function seekFrame(ctx: Ctx, time: number): Promise<VideoFrame> {
  const fps = ctx.probe.video.fps > 0 ? ctx.probe.video.fps : 25;
  // The right frame starts within one frame interval after `time`; anything later means a bad landing.
  const tolerance = 1.01 / fps;
  let best: { data: Uint8Array; at: number } | undefined;
  const prerolls = [...new Set([ctx.preroll, 3, 15, time].map((p) => Math.min(p, time)))].filter((p) => p >= Math.min(ctx.preroll, time)).sort((a, b) => a - b);
  for (const preroll of prerolls) {
    const got = await firstFrameFrom(ctx, time, preroll);
    if (!got) break;
    const same = best && Math.abs(best.at - got.at) < 0.0005;
    if (!best || got.at < best.at) best = got;
    if (same) break;
    if (best.at - time <= tolerance) {
      // Later targets in this file need at least the same run-up.
      ctx.preroll = Math.max(ctx.preroll, Math.min(preroll, 15));
      break;
    }
  }
  // Past the last video frame (audio longer than video, or duration rounding): show what was last on screen.
  const data = best?.data ?? (await lastFrameBefore(ctx, time));
  if (!data) throw new MediaError('no_frame', `no frame could be decoded from ${basename(ctx.file)} at ${time.toFixed(3)} s`);
  return { data, ...ctx.size, time };
}

/**
 * One decoding pass from the first to the last target. `select` keeps only frames in a short window
 * after each target and `showinfo` reports their times on stderr, in the same order as the frames
 * arrive on stdout. Targets whose window caught no frame (variable frame rate gaps, or an unindexed
 * file where the starting seek landed late) are returned in `missed` for a seek.
 */
async function* passFrames(ctx: Ctx, times: number[], missed: number[]): AsyncGenerator<VideoFrame> {
  const fps = ctx.probe.video.fps > 0 ? ctx.probe.video.fps : 25;
  const window = Math.max(1.5 / fps, 0.05);
  const eps = 0.0005;
  const start = Math.max(0, times[0] - 0.001 - ctx.preroll);
  const rel = times.map((t) => t - start);
  const expr = rel.map((r) => `between(t,${(r - eps).toFixed(4)},${(r + window).toFixed(4)})`).join('+');
  const vf = `select='${expr}',${scaleFilter(ctx.size)},showinfo`;
  const span = rel[rel.length - 1] + window + 0.1;

  const frameTimes: number[] = [];
  let wake: (() => void) | undefined;
  const onStderrLine = (line: string): void => {
    const m = SHOWINFO.exec(line);
    if (!m) return;
    frameTimes.push(start + Number(m[1]));
    wake?.();
  };
  const args = [...baseArgs(ctx, start, span), '-v', 'info', '-vf', vf, '-fps_mode', 'passthrough', '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'];
  const proc = spawnTool('ffmpeg', args, { signal: ctx.signal, onStderrLine, tools: ctx.tools });
  let closed = false;
  const onClose = (): void => {
    closed = true;
    wake?.();
  };
  // Both branches: a rejection is reported by `await proc.done` below, not by this bookkeeping.
  proc.done.then(onClose, onClose);
  const timeOf = async (n: number): Promise<number | undefined> => {
    while (frameTimes.length <= n && !closed) await new Promise<void>((r) => (wake = r));
    wake = undefined;
    return frameTimes[n];
  };

  let next = 0;
  let n = 0;
  let lost = false;
  try {
    for await (const data of readRawFrames(proc.stdout, ctx.size.width * ctx.size.height * 3)) {
      const t = await timeOf(n++);
      // ffmpeg exited without reporting this frame's time: stop here, the remaining targets get seeks.
      if (t === undefined) {
        lost = true;
        break;
      }
      // Targets whose window ended before this frame got nothing.
      while (next < times.length && t >= times[next] + window + eps) missed.push(times[next++]);
      // This frame is the first at or after every pending target up to its own time.
      while (next < times.length && times[next] - eps <= t) yield { data, ...ctx.size, time: times[next++] };
    }
    if (!lost) await proc.done;
  } finally {
    proc.kill();
  }
  while (next < times.length) missed.push(times[next++]);
}

/**
 * Decodes frames at the given times (seconds) as RGB scaled to at most `maxWidth`, yielding them in
 * ascending time order, one per unique time. Times are clamped into the video; rotation is applied.
 * Only what is needed is decoded: see {@link planExtraction} for when one pass beats one seek per
 * time. Every frame's real position is checked (showinfo), so unindexed files (MPEG-TS) where a seek
 * lands past the target are decoded again from further back rather than returning the wrong picture.
 * The times may also come as they are known, in ascending order (a video's keyframes while its shots are
 * found): they are decoded in batches of those known, the first once {@link STREAMED_BATCH} are.
 * Throws `MediaError('no_video')` for files without pictures.
 * @example
 * for await (const f of extractFrames('/media/talk.mp4', [4, 12, 20], { maxWidth: 960, signal })) {
 *   ocr(f.data, f.width, f.height); // f.time === 4, then 12, then 20
 * }
 */
export async function* extractFrames(file: string, times: readonly number[] | AsyncIterable<number>, opts: ExtractFramesOptions = {}): AsyncGenerator<VideoFrame> {
  const { signal, maxWidth = 1280, tools } = opts;
  const probe = opts.probe ?? (await probeMedia(file, { signal, checkIntegrity: false, tools }));
  const video = probe.video;
  if (!video) throw new MediaError('no_video', `${basename(file)} has no video stream to take frames from`);
  const ctx: Ctx = { file, probe: { ...probe, video }, size: scaledSize(video, maxWidth), signal, tools, preroll: 0 };
  const last = Math.max(0, probe.durationSec - 0.001);
  const targets = (batch: Iterable<number>): number[] => [...new Set([...batch].filter(Number.isFinite).map((t) => Math.round(Math.min(Math.max(t, 0), last) * 1000) / 1000))].sort((a, b) => a - b);
  if (!(Symbol.asyncIterator in times)) return yield* framesOf(ctx, planExtraction(targets(times)));
  let after = -1;
  for await (const batch of waitingBatches(times, STREAMED_BATCH)) {
    const fresh = targets(batch).filter((t) => t > after);
    if (fresh.length === 0) continue;
    after = fresh.at(-1)!;
    yield* framesOf(ctx, planExtraction(fresh));
  }
}

/**
 * Times that come as they are known are decoded once this many are waiting (or no more will come): fewer ffmpeg
 * starts than one per time, and the first frames before the last times are known.
 */
export const STREAMED_BATCH = 8;

/** Decodes the frames of a plan, in time order. */
async function* framesOf(ctx: Ctx, plan: ExtractionStep[]): AsyncGenerator<VideoFrame> {
  for (const step of plan) {
    if (step.mode === 'seek') {
      yield await seekFrame(ctx, step.times[0]);
      continue;
    }
    const missed: number[] = [];
    const passed: VideoFrame[] = [];
    // Frames from the pass come in time order; a missed target is fetched by seek and merged in order.
    for await (const f of passFrames(ctx, step.times, missed)) {
      while (missed.length && missed[0] < f.time) passed.push(await seekFrame(ctx, missed.shift()!));
      passed.push(f);
      while (passed.length) yield passed.shift()!;
    }
    for (const t of missed) yield await seekFrame(ctx, t);
  }
}

/**
 * One frame at one time; see {@link extractFrames}.
 * @example
 * const f = await extractFrame('/media/talk.mp4', 12.5, { maxWidth: 960 });
 */
export async function extractFrame(file: string, time: number, opts: ExtractFramesOptions = {}): Promise<VideoFrame> {
  for await (const f of extractFrames(file, [time], opts)) return f;
  throw new MediaError('no_frame', `no frame could be decoded from ${basename(file)} at ${time} s`);
}
