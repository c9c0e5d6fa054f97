import type { MediaTools } from './binaries.js';
import { MediaError } from './errors.js';
import { probeMedia, type MediaProbe } from './probe.js';
import { fileUrl, spawnTool } from './run.js';
import { basename } from 'node:path';
import { fixedWindows } from '../tools/fixed-windows.js';
import { frameLook, greyHash, LOOK_BYTES } from './perceptual.js';

/** A hard cut: the first frame of the new shot and how different it is from the previous frame (0..1). */
export interface SceneCut {
  time: number;
  score: number;
}

/** A shot between two cuts (or the file's start/end). */
export interface Scene {
  start: number;
  end: number;
}

/** Options for {@link detectScenes}. */
export interface DetectScenesOptions {
  signal?: AbortSignal;
  /** The server's tools (FFMPEG_PATH …); default: npm packages, then PATH. */
  tools?: MediaTools;
  /** ffmpeg scene score above which a frame starts a new shot. Default 0.3 (hard cuts score 0.5–1). */
  threshold?: number;
  /**
   * Frames are scaled to this width before scoring; smaller is faster and ignores noise. Default 160: the
   * scores at 160 stay within 0.006 of those at 320 on slides and real footage, and the pass costs about half
   * the CPU (the conversion to RGB at 320 was as dear as decoding the video).
   */
  analysisWidth?: number;
  /** Cuts closer than this to the previous cut are dropped (flashes, glitches). Default 0.5 s. */
  minSceneSec?: number;
  /** Reuse an earlier probe instead of running ffprobe again. */
  probe?: MediaProbe;
  /**
   * Also hash frames of the same decoding pass, `fps` a second (a video's dense frame sequence, see
   * {@link FrameSequence}); the frames are scaled to 32×32 by ffmpeg and hashed here.
   */
  sequenceFps?: number;
  /**
   * Told as the pass goes (about four times a second of video, and at each cut): the time scored so far and
   * the cuts found up to it, which are final. A reader may act on the shots before the pass ends.
   */
  onScored?: (sofar: ScoredSoFar) => void;
}

/** How far a scene pass has scored a video: every frame up to `reached` seconds, and the cuts among them. */
export interface ScoredSoFar {
  reached: number;
  cuts: readonly SceneCut[];
}

/**
 * The 64-bit DCT hash (media/perceptual.ts `greyHash`) of frames at a steady rate from the start: frame i
 * shows `i / fps` seconds. Hashes are 16 hex digits each, one after the other; `looks` holds each frame's
 * structure and colours (`frameLook`, {@link LOOK_BYTES} bytes, hex) in the same order, and is absent in
 * sequences made before vidx kept them.
 */
export interface FrameSequence {
  fps: number;
  hashes: string;
  looks?: string;
}

const FRAME_LINE = /\[Parsed_metadata_\d+ @ [^\]]+\] frame:\s*\d+\s+pts:\s*-?\d+\s+pts_time:(-?[\d.]+)/;
const SCORE_LINE = /\[Parsed_metadata_\d+ @ [^\]]+\] lavfi\.scene_score=([\d.]+)/;

/**
 * Finds hard cuts with ffmpeg's `select='gt(scene,T)'` on a downscaled copy of the main video stream
 * (one decoding pass; the score is the frame-to-frame difference ffmpeg computes, 0..1). Gradual
 * fades and dissolves mostly stay below the threshold and are not reported. Times are seconds from
 * the start of the file.
 * @example
 * const { cuts, scenes } = await detectScenes('/media/talk.mp4', { threshold: 0.3, signal });
 * cuts;   // [{ time: 8, score: 0.97 }, { time: 16, score: 0.95 }]
 * scenes; // [{ start: 0, end: 8 }, { start: 8, end: 16 }, { start: 16, end: 24 }]
 */
export async function detectScenes(
  file: string,
  opts: DetectScenesOptions = {},
): Promise<{ cuts: SceneCut[]; scenes: Scene[]; durationSec: number; sequence: FrameSequence | null }> {
  const { signal, threshold = 0.3, analysisWidth = 160, minSceneSec = 0.5, tools } = opts;
  const probe = opts.probe ?? (await probeMedia(file, { signal, checkIntegrity: false, tools }));
  if (!probe.video) throw new MediaError('no_video', `${basename(file)} has no video stream to find scenes in`);

  const cuts: SceneCut[] = [];
  let pending: number | undefined;
  // Frames come in time order; a cut too close to the one before (a flash, a glitch) is dropped.
  const onScore = (time: number, score: number): void => {
    const prev = cuts.at(-1)?.time ?? 0;
    if (score > threshold && time - prev >= minSceneSec && time > 0) cuts.push({ time: round3(time), score: round3(score) });
    opts.onScored?.({ reached: time, cuts });
  };
  const onStderrLine = (line: string): void => {
    const f = FRAME_LINE.exec(line);
    if (f) {
      pending = Number(f[1]);
      return;
    }
    const s = SCORE_LINE.exec(line);
    if (s && pending !== undefined) {
      onScore(pending, Number(s[1]));
      pending = undefined;
    }
  };
  // Every frame is scored; the cuts and a tick about four times a second of video are printed, so a reader knows
  // how far the pass has gone. A cut is a score above the threshold as printed (six decimals).
  const tick = Math.max(1, Math.round((probe.video.fps > 0 ? probe.video.fps : 25) / 4));
  const scoring = `scale=${Math.max(16, Math.round(analysisWidth))}:-2:flags=fast_bilinear,format=rgb24,select='gt(scene\\,${threshold})+not(mod(n\\,${tick}))',metadata=print:key=lavfi.scene_score`;
  const fps = opts.sequenceFps;
  // One decoding pass: the scene score on a small copy, and (when asked) 32×32 frames on stdout, in full-range
  // YUV: its Y plane is the very grey `format=gray` gives (the hashes of earlier sequences stay comparable).
  const graph = fps ? `[0:${probe.video.index}]split=2[a][b];[a]${scoring}[scored];[b]fps=${fps},scale=32:32:flags=area,format=yuvj444p[small]` : null;
  const args = graph
    ? ['-hide_banner', '-nostdin', '-nostats', '-v', 'info', '-i', fileUrl(file), '-filter_complex', graph, '-map', '[scored]', '-f', 'null', '-', '-map', '[small]', '-f', 'rawvideo', 'pipe:1']
    : ['-hide_banner', '-nostdin', '-nostats', '-v', 'info', '-i', fileUrl(file), '-map', `0:${probe.video.index}`, '-an', '-sn', '-dn', '-vf', scoring, '-f', 'null', '-'];
  const proc = spawnTool('ffmpeg', args, { signal, onStderrLine, tools });
  let hashes = '';
  const looks: Uint8Array[] = [];
  const reading = (async () => {
    if (!fps) return void proc.stdout.resume();
    for await (const yuv of fixedWindows(proc.stdout as AsyncIterable<Buffer>, 3 * 32 * 32, (n) => new Uint8Array(n), { reuse: true })) {
      hashes += greyHash(yuv.subarray(0, 32 * 32));
      looks.push(frameLook(yuv));
    }
  })();
  await Promise.all([proc.done, reading]);

  opts.onScored?.({ reached: probe.durationSec, cuts });
  const durationSec = probe.durationSec;
  const bounds = [0, ...cuts.map((c) => c.time), durationSec];
  const scenes: Scene[] = [];
  for (let i = 0; i + 1 < bounds.length; i++) if (bounds[i + 1] > bounds[i]) scenes.push({ start: bounds[i], end: bounds[i + 1] });
  const sequence = fps ? { fps, hashes, looks: Buffer.concat(looks, looks.length * LOOK_BYTES).toString('hex') } : null;
  return { cuts, scenes, durationSec, sequence };
}

function round3(n: number): number {
  return Math.round(n * 1000) / 1000;
}
