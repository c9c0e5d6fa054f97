/**
 * How vidx's ONNX Runtime sessions use the CPU, in one place for its own sessions and for transformers.js's.
 */
import type { InferenceSession } from 'onnxruntime-node';
import { providerOptions, type OnnxProviders } from './providers.js';

/**
 * Two threads inside one op (a 2-core machine), one op at a time, and the threads sleep when a run ends
 * instead of spinning for the next. Spinning kept both cores busy between runs: while OCR read a video's
 * keyframes, the ffmpeg passes beside it waited for the CPU the spin took (the 4-minute bench video analysed
 * in 6.4 s instead of 7.4 s, the process's own CPU 5.0 s instead of 7.3 s, the same analysis; 2026-11-30).
 * VAD's session runs on one thread and has no pool to spin.
 * @example
 * ort.InferenceSession.create(file, { ...CPU_THREADS, graphOptimizationLevel: 'all' });
 */
export const CPU_THREADS = {
  intraOpNumThreads: 2,
  interOpNumThreads: 1,
  extra: { session: { intra_op: { allow_spinning: '0' } } },
} as const;

/**
 * The options of vidx's own sessions (OCR, faces, speakers): {@link CPU_THREADS}, every graph optimisation,
 * errors only in ONNX Runtime's log, and the server's execution providers.
 * @example
 * ort.InferenceSession.create(file, onnxSessionOptions(setup.providers));
 */
export function onnxSessionOptions(providers: OnnxProviders = 'cpu'): InferenceSession.SessionOptions {
  return { ...CPU_THREADS, graphOptimizationLevel: 'all', logSeverityLevel: 3, ...providerOptions(providers) };
}
