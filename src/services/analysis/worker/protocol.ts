import { MediaError, SourceError } from '../../../media/index.js';
import type { PipelineInput } from '../pipeline.js';
import type { MediaAnalysis } from '../types.js';

/** Which analysis runs: the audio/video pipeline or the still-picture one. */
export type AnalysisKind = 'media' | 'image';

/**
 * What an analysis worker is started with: plain data, so the same worker could run in another process
 * or on another machine given the same files.
 */
export interface AnalysisWorkerSettings {
  modelsDir: string;
  manifestPath?: string;
  /** The file-access rule of the server (media roots, never the data dir). */
  mediaRoots: string[];
  dataDir: string;
  /** Every folder vidx writes (data, models, unpacked binary files): never read as media. */
  ownDirs: string[];
}

/** Main thread → worker. */
export type AnalysisRequest = { id: number; kind: AnalysisKind; input: PipelineInput } | { id: number; cancel: true };

/** An error as it crosses the thread boundary: enough to rebuild the classes the tasks tell apart. */
export interface WireError {
  name: string;
  message: string;
  code?: string;
}

/** Worker → main thread. */
export type AnalysisReply =
  | { id: number; progress: [fraction: number, stage: string] }
  | { id: number; analysis: MediaAnalysis }
  | { id: number; error: WireError };

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
