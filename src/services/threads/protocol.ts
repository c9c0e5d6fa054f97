import type { ModelAssetPaths } from '../../ml/assets.js';
import type { ToolPaths } from '../../media/binaries.js';
import type { OnnxProviders } from '../../ml/providers.js';
import { MediaError, SourceError } from '../../media/index.js';

/**
 * What a thread is started with: plain data, so the same thread could run in another process or on
 * another machine given the same files.
 */
export interface ThreadSettings {
  modelsDir: string;
  manifestPath?: string;
  /** The file-access rule of the server (media roots, never the data dir). */
  mediaRoots: string[];
  dataDir: string;
  /** Every folder vidx writes (data, models, unpacked binary files): never read as media. */
  ownDirs: string[];
  tools: ToolPaths;
  modelAssets: ModelAssetPaths;
  /** The execution providers of the thread's ONNX sessions (VIDX_ONNX_PROVIDERS). */
  onnxProviders?: OnnxProviders;
  /** The single binary's unpacked folder, where a binary thread loads the native addons from. */
  nativeRoot?: string;
}

/** An error as it crosses the thread boundary: enough to rebuild the classes the tasks tell apart. */
export interface WireError {
  name: string;
  message: string;
  code?: string;
}

/** Main thread → thread: run a call, or cancel the one with that id. */
export type ThreadRequest = { id: number; call: string; input: unknown } | { id: number; cancel: true };

/**
 * Thread → main thread: progress of a call, its output, or its error; and each tool process the thread starts
 * and ends (`child`), so the pool can end them when a cancel finds the thread busy.
 */
export type ThreadReply =
  | { id: number; progress: [fraction: number, stage: string] }
  | { id: number; output: unknown }
  | { id: number; error: WireError }
  | { child: [pid: number, running: boolean] };

/**
 * An error for the wire.
 * @example
 * toWire(new MediaError('not_media', 'x.txt is not a media file')); // { name: 'MediaError', code: 'not_media', … }
 */
export function toWire(err: unknown): WireError {
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    return { name: err.name, message: err.message, ...(typeof code === 'string' ? { code } : {}) };
  }
  return { name: 'Error', message: String(err) };
}

/**
 * The error again on the main thread: MediaError and SourceError with their codes (tasks and folder scans
 * decide by them), an abort as an AbortError, anything else as an Error with the same message.
 * @example
 * fromWire({ name: 'MediaError', code: 'not_media', message: '…' }) instanceof MediaError; // true
 */
export function fromWire(w: WireError): Error {
  if (w.name === 'MediaError' && w.code) return new MediaError(w.code as MediaError['code'], w.message);
  if (w.name === 'SourceError' && w.code) return new SourceError(w.code as SourceError['code'], w.message);
  const e = new Error(w.message);
  e.name = w.name;
  return e;
}
