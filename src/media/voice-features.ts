/**
 * What a voice sounds like, window by window, with no model: MFCCs (meyda) of 32 ms frames of the sound the
 * analysis decodes, summed per window of speech into their mean and spread. Two people differ in these as
 * their vocal tracts and pitches differ; the speakers step clusters the windows (analysis/speakers.ts).
 *
 * Only a window's sums are kept while the sound streams by, so a 3-hour memo costs what a few thousand
 * windows hold, never its samples.
 */
import MeydaModule from 'meyda';
import { decodeAudio, PCM_SAMPLE_RATE } from './audio.js';
import type { MediaTools } from './binaries.js';
import type { Span } from '../tools/time-spans.js';

// meyda's types describe an ES module with a default export; Node loads its CommonJS build, which is the object itself.
const Meyda = ((MeydaModule as { default?: unknown }).default ?? MeydaModule) as typeof MeydaModule.default;

/** Samples per MFCC frame (32 ms at 16 kHz; meyda wants a power of two). */
const FRAME = 512;
/** MFCCs per frame; the first (loudness) is left out of the features. */
const COEFFICIENTS = 13;
/** Frames quieter than this RMS are pauses inside a speech region, not voice. */
const QUIET_RMS = 0.004;
/** Pitch is looked for between these lags (samples): 400 Hz down to 60 Hz. */
const MIN_LAG = Math.floor(PCM_SAMPLE_RATE / 400);
const MAX_LAG = Math.ceil(PCM_SAMPLE_RATE / 60);
/** A frame is voiced when its normalised autocorrelation at the pitch lag is at least this. */
const VOICED = 0.5;


/** One window of speech: its time and its voice features (means then spreads of MFCC 1–12). */
export interface VoiceWindow extends Span {
  features: number[];
  /** The mean log pitch (Hz) of its voiced frames; null with too few of them. */
  pitch: number | null;
  pitchSpread: number;
}

/** The running sums of one window while the sound streams by. */
interface WindowSums {
  n: number;
  sum: Float64Array;
  sq: Float64Array;
  voiced: number;
  pitch: number;
  pitchSq: number;
}

/** One window length's windows, their sums, and the window the stream has reached. */
interface Scale {
  windows: Span[];
  sums: WindowSums[];
  at: number;
}

/**
 * Voice features of the speech in `file` at each window length of `windowSec`, from one decode: one window
 * per length of each speech span (rounded to whole windows). Frames outside the spans and quiet frames are
 * skipped; a window with too few voiced frames is left out.
 * @example
 * const [long, short] = await voiceWindows(file, [{ start: 0.4, end: 6.1 }], { windowSec: [2, 0.5], signal, tools });
 * long[0].features.length; // 24
 */
export async function voiceWindows(file: string, spans: readonly Span[], opts: { windowSec: readonly number[]; signal: AbortSignal; tools?: MediaTools }): Promise<VoiceWindow[][]> {
  const scales: Scale[] = opts.windowSec.map((size) => {
    const windows = windowsOf(spans, size);
    return { windows, sums: windows.map(() => ({ n: 0, sum: new Float64Array(COEFFICIENTS - 1), sq: new Float64Array(COEFFICIENTS - 1), voiced: 0, pitch: 0, pitchSq: 0 })), at: 0 };
  });
  if (scales.every((sc) => sc.windows.length === 0)) return scales.map(() => []);
  Meyda.bufferSize = FRAME;
  Meyda.sampleRate = PCM_SAMPLE_RATE;
  Meyda.numberOfMFCCCoefficients = COEFFICIENTS;
  const frame = new Float32Array(FRAME);
  let filled = 0;
  let frameIndex = 0;
  const done = () => scales.every((sc) => sc.at >= sc.windows.length);
  let ended = false;
  for await (const pcm of decodeAudio(file, { signal: opts.signal, tools: opts.tools, chunkSeconds: 10 })) {
    for (let i = 0; i < pcm.length && !ended; i++) {
      frame[filled++] = pcm[i]!;
      if (filled < FRAME) continue;
      filled = 0;
      addFrame(scales, frame, frameIndex++);
      ended = done();
    }
    // The speech is all heard: the rest of the file need not be decoded.
    if (ended) break;
  }
  return scales.map((sc) => finished(sc));
}

/** Adds one frame to the window of each scale it falls in. */
function addFrame(scales: Scale[], frame: Float32Array, index: number): void {
  const t = ((index + 0.5) * FRAME) / PCM_SAMPLE_RATE;
  const open = scales.filter((sc) => {
    while (sc.at < sc.windows.length && sc.windows[sc.at]!.end <= t) sc.at++;
    return sc.at < sc.windows.length && t >= sc.windows[sc.at]!.start;
  });
  if (open.length === 0 || rms(frame) < QUIET_RMS) return;
  const mfcc = Meyda.extract('mfcc', frame) as unknown as number[];
  // Every other frame is enough for a window's pitch, and the search for it is the costly part.
  const f0 = index % 2 === 0 ? pitchOf(frame) : null;
  for (const sc of open) {
    const s = sc.sums[sc.at]!;
    s.n++;
    if (f0 !== null) {
      s.voiced++;
      s.pitch += Math.log(f0);
      s.pitchSq += Math.log(f0) ** 2;
    }
    for (let c = 1; c < COEFFICIENTS; c++) {
      s.sum[c - 1]! += mfcc[c]!;
      s.sq[c - 1]! += mfcc[c]! * mfcc[c]!;
    }
  }
}

/** A scale's windows with their features; those with few frames (a few voiced ones say little) left out. */
function finished(sc: Scale): VoiceWindow[] {
  const out: VoiceWindow[] = [];
  sc.windows.forEach((win, k) => {
    const s = sc.sums[k]!;
    if (s.n < 8) return;
    const mean = [...s.sum].map((v) => v / s.n);
    const spread = [...s.sq].map((v, c) => Math.sqrt(Math.max(0, v / s.n - mean[c]! ** 2)));
    const pitch = s.voiced ? s.pitch / s.voiced : 0;
    const pitchSpread = s.voiced ? Math.sqrt(Math.max(0, s.pitchSq / s.voiced - pitch ** 2)) : 0;
    out.push({ ...win, features: [...mean, ...spread], pitch: s.voiced >= 3 ? pitch : null, pitchSpread });
  });
  return out;
}

/** Each speech span (overlapping ones merged: subtitle cues may overlap) cut into windows of about `size` seconds, in time order. */
function windowsOf(spans: readonly Span[], size: number): Span[] {
  const merged: Span[] = [];
  for (const s of [...spans].sort((a, b) => a.start - b.start)) {
    const last = merged.at(-1);
    if (last && s.start < last.end) last.end = Math.max(last.end, s.end);
    else merged.push({ start: s.start, end: s.end });
  }
  const out: Span[] = [];
  for (const span of merged) {
    const length = span.end - span.start;
    if (!(length > 0)) continue;
    const n = Math.max(1, Math.round(length / size));
    for (let i = 0; i < n; i++) out.push({ start: span.start + (i * length) / n, end: span.start + ((i + 1) * length) / n });
  }
  return out;
}

/** The frame at half the rate (pairs of samples averaged): pitch lies far below 4 kHz, and a quarter of the work finds it. */
const half = new Float32Array(FRAME / 2);

/** A frame's pitch (Hz) by normalised autocorrelation at half the sample rate, or null when it is not voiced. */
function pitchOf(frame: Float32Array): number | null {
  for (let i = 0; i < half.length; i++) half[i] = (frame[2 * i]! + frame[2 * i + 1]!) / 2;
  let best = 0;
  let bestLag = 0;
  for (let lag = Math.floor(MIN_LAG / 2); lag <= Math.ceil(MAX_LAG / 2); lag++) {
    let r = 0;
    let e1 = 0;
    let e2 = 0;
    for (let i = 0; i + lag < half.length; i++) {
      r += half[i]! * half[i + lag]!;
      e1 += half[i]! * half[i]!;
      e2 += half[i + lag]! * half[i + lag]!;
    }
    const c = r / Math.sqrt(e1 * e2 || 1);
    if (c > best) [best, bestLag] = [c, lag];
  }
  return best >= VOICED ? PCM_SAMPLE_RATE / 2 / bestLag : null;
}

function rms(frame: Float32Array): number {
  let s = 0;
  for (let i = 0; i < frame.length; i++) s += frame[i]! * frame[i]!;
  return Math.sqrt(s / frame.length);
}
