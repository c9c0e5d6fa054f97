/**
 * A sound print: what stays the same when a recording's sound is re-encoded, resampled or made louder, and
 * changes when it says or plays something else. Duplicates ask it so that two slides of one colour with
 * other voices over them are not copies.
 *
 * Every tenth of a second, over the last 256 ms: the energy of 17 bands from 300 to 3,000 Hz on a log
 * scale, and 16 bits, each whether the energy difference of two neighbouring bands grew since the frame
 * before (the scheme of Haitsma and Kalker's audio fingerprint). A gain on the whole sound scales every
 * difference alike and leaves the bits; a lossy codec moves a few. Beside the bits, the frame's loudness,
 * so that silence (whose bits are noise) is never compared.
 */
import FFT from 'fft.js';
import type { MediaTools } from './binaries.js';
import { decodeAudio, PCM_SAMPLE_RATE } from './audio.js';

/** Seconds of sound a print covers at most: enough to tell copies apart, bounded for long recordings (90 KB). */
export const SOUND_PRINT_SECONDS = 1800;
/** Frames a second of a sound print. */
export const SOUND_PRINT_FPS = 10;
/** Bytes a frame: the 16 change bits and the 16 shape bits (each high byte first), then the loudness. */
export const SOUND_FRAME_BYTES = 5;
/** Loudness below which a frame is silence: -60 dBFS, stored as dB + 100. */
export const SILENT_BELOW = 40;

/** A recording's sound print: {@link SOUND_FRAME_BYTES} bytes a frame, hex (JSON-safe, compact). */
export interface SoundPrint {
  fps: number;
  frames: string;
}

const WINDOW = 4096;
const HOP = PCM_SAMPLE_RATE / SOUND_PRINT_FPS;
const BANDS = 17;

/** FFT bins at the edges of the bands: 300–3,000 Hz in equal steps of log frequency. */
const EDGES = Array.from({ length: BANDS + 1 }, (_, b) => Math.round((300 * 10 ** (b / BANDS)) / (PCM_SAMPLE_RATE / WINDOW)));
const HANN = Float64Array.from({ length: WINDOW }, (_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (WINDOW - 1)));

/**
 * Computes sound print frames from PCM pushed in pieces of any length (16 kHz mono), one frame per
 * {@link SOUND_PRINT_FPS}th of a second once a whole window has arrived.
 * @example
 * const printer = new SoundPrinter();
 * for await (const pcm of decodeAudio(file)) printer.push(pcm);
 * printer.result(); // { fps: 10, frames: '3fa14a…' }
 */
export class SoundPrinter {
  private readonly fft = new FFT(WINDOW);
  private readonly window = new Float64Array(WINDOW);
  private readonly spectrum: number[] = this.fft.createComplexArray();
  private readonly recent = new Float32Array(WINDOW);
  /** Samples received; the window ends at the newest. */
  private received = 0;
  private previous: Float64Array | null = null;
  private readonly bytes: number[] = [];

  /** Adds samples; a frame is made at every hop once a window is full. */
  push(pcm: Float32Array): void {
    for (let i = 0; i < pcm.length; i++) {
      this.recent[this.received % WINDOW] = pcm[i]!;
      this.received++;
      if (this.received >= WINDOW && (this.received - WINDOW) % HOP === 0) this.frame();
    }
  }

  /** The print of everything pushed. */
  result(): SoundPrint {
    return { fps: SOUND_PRINT_FPS, frames: Buffer.from(this.bytes).toString('hex') };
  }

  private frame(): void {
    let power = 0;
    for (let i = 0; i < WINDOW; i++) {
      const s = this.recent[(this.received + i) % WINDOW]!;
      power += s * s;
      this.window[i] = s * HANN[i]!;
    }
    this.fft.realTransform(this.spectrum, this.window);
    const energy = new Float64Array(BANDS);
    for (let b = 0; b < BANDS; b++) {
      for (let k = EDGES[b]!; k < EDGES[b + 1]!; k++) energy[b] += this.spectrum[2 * k]! ** 2 + this.spectrum[2 * k + 1]! ** 2;
    }
    let change = 0;
    let shape = 0;
    const before = this.previous ?? energy;
    for (let b = 0; b < BANDS - 1; b++) {
      const slope = energy[b]! - energy[b + 1]!;
      change = (change << 1) | (slope - (before[b]! - before[b + 1]!) > 0 ? 1 : 0);
      shape = (shape << 1) | (slope > 0 ? 1 : 0);
    }
    this.previous = energy;
    const rms = Math.sqrt(power / WINDOW);
    const loudness = Math.max(0, Math.min(255, Math.round(100 + 20 * Math.log10(rms + 1e-12))));
    this.bytes.push(change >>> 8, change & 0xff, shape >>> 8, shape & 0xff, loudness);
  }
}

/**
 * The sound print of a file's first audio stream over its first {@link SOUND_PRINT_SECONDS}, decoded as it
 * is read; null when the file has no sound.
 * @example
 * const print = await soundPrint('/media/talk.mp4', { signal, tools });
 * print.frames.length / 2 / SOUND_FRAME_BYTES; // about 10 frames a second of sound
 */
export async function soundPrint(file: string, opts: { signal?: AbortSignal; tools?: MediaTools } = {}): Promise<SoundPrint | null> {
  const printer = new SoundPrinter();
  let samples = 0;
  for await (const pcm of decodeAudio(file, { signal: opts.signal, tools: opts.tools, chunkSeconds: 10, durationSec: SOUND_PRINT_SECONDS })) {
    printer.push(pcm);
    samples += pcm.length;
  }
  return samples ? printer.result() : null;
}

/** A sound print's frames as bytes ({@link SOUND_FRAME_BYTES} a frame), as the store keeps them. */
export interface SoundFrames {
  fps: number;
  frames: Uint8Array;
}

/** How two sound prints compare at an offset, over the frames loud in both. */
export interface SoundComparison {
  /** Mean share of differing change bits, 0..1 (about 0.37 for unrelated sound); null when too little sound met. */
  change: number | null;
  /** The same for the shape bits: steady sound (a hum, a tone) has change bits of noise but a steady shape. */
  shape: number | null;
  /** Frames compared (loud in both). */
  frames: number;
}

/** Seconds of sound both must have at the offset before the prints say anything. */
const LEAST_SECONDS = 2;
const LOUDNESS = 4;

/**
 * Compares two sound prints where B's time is A's plus `offset` seconds: each loud frame of A against the
 * frames of B within a frame of that time, the closest counting (codecs shift sound by a few milliseconds).
 * @example
 * const bytes = (p: SoundPrint) => ({ fps: p.fps, frames: Buffer.from(p.frames, 'hex') });
 * compareSound(bytes(original), bytes(reencoded), 0); // { change: 0.01, shape: 0.01, frames: 66 }
 * compareSound(slideA, slideB, 0);      // { change: 0.37, shape: 0.3, frames: 52 }
 */
export function compareSound(a: SoundFrames, b: SoundFrames, offset: number): SoundComparison {
  const fa = a.frames;
  const fb = b.frames;
  const na = fa.length / SOUND_FRAME_BYTES;
  const nb = fb.length / SOUND_FRAME_BYTES;
  let change = 0;
  let shape = 0;
  let frames = 0;
  for (let i = 1; i < na; i++) {
    const at = i * SOUND_FRAME_BYTES;
    if (fa[at + LOUDNESS]! < SILENT_BELOW) continue;
    const j = Math.round((i / a.fps + offset) * b.fps);
    let bestChange = Infinity;
    let bestShape = Infinity;
    for (let k = Math.max(1, j - 1); k <= Math.min(nb - 1, j + 1); k++) {
      const bt = k * SOUND_FRAME_BYTES;
      if (fb[bt + LOUDNESS]! < SILENT_BELOW) continue;
      bestChange = Math.min(bestChange, differingBits(fa, at, fb, bt));
      bestShape = Math.min(bestShape, differingBits(fa, at + 2, fb, bt + 2));
    }
    if (bestChange === Infinity) continue;
    change += bestChange / 16;
    shape += bestShape / 16;
    frames++;
  }
  const enough = frames >= LEAST_SECONDS * Math.min(a.fps, b.fps);
  return { change: enough ? change / frames : null, shape: enough ? shape / frames : null, frames };
}

/** Differing bits of the 16-bit words at two byte offsets. */
function differingBits(a: Uint8Array, i: number, b: Uint8Array, j: number): number {
  let n = 0;
  for (let v = ((a[i]! ^ b[j]!) << 8) | (a[i + 1]! ^ b[j + 1]!); v; v &= v - 1) n++;
  return n;
}
