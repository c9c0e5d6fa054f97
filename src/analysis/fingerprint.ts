import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import { type FileAccess, listSidecarSubtitles } from '../media/index.js';
import { modelSetEntries } from '../ml/model-set.js';
import type { Lang } from '../messages/index.js';

const SAMPLE = 4 * 1024 * 1024;

/**
 * A content fingerprint that is cheap on large files: SHA-256 over the size and three 4 MiB samples
 * (start, middle, end). Two different files of a personal archive practically never share it.
 * @example
 * await fingerprintFile(files, '/videos/a.mp4'); // 'f1c3…'
 */
export async function fingerprintFile(files: FileAccess, path: string): Promise<string> {
  const fh = await files.openCheckedFile(path);
  try {
    const { size } = await fh.stat();
    const hash = createHash('sha256').update(`${size}\n`);
    const offsets = size <= 3 * SAMPLE ? [0] : [0, Math.floor(size / 2) - SAMPLE / 2, size - SAMPLE];
    const buf = Buffer.alloc(size <= 3 * SAMPLE ? size : SAMPLE);
    for (const offset of offsets) {
      const { bytesRead } = await fh.read(buf, 0, buf.length, offset);
      hash.update(buf.subarray(0, bytesRead));
    }
    return hash.digest('hex');
  } finally {
    await fh.close();
  }
}

/**
 * SHA-256 of the whole file, read as a stream through the checked descriptor: what decides whether a file
 * whose date changed still holds the same bytes (a same-size edit between the samples of
 * {@link fingerprintFile} changes this, not that).
 * @example
 * await hashWholeFile(files, '/videos/a.mp4', signal); // '5d41…'
 */
export async function hashWholeFile(files: FileAccess, path: string, signal?: AbortSignal): Promise<string> {
  const fh = await files.openCheckedFile(path);
  try {
    const hash = createHash('sha256');
    signal?.throwIfAborted();
    // Read in 1 MiB pieces with the stop checked between them (a signal on the stream itself can fail it
    // before anyone listens).
    const buf = Buffer.alloc(1024 * 1024);
    for (let position = 0; ; ) {
      const { bytesRead } = await fh.read(buf, 0, buf.length, position);
      if (bytesRead === 0) break;
      hash.update(buf.subarray(0, bytesRead));
      position += bytesRead;
      signal?.throwIfAborted();
    }
    return hash.digest('hex');
  } finally {
    await fh.close();
  }
}

/** Everything an analysis depends on besides the pipeline's own code. */
export interface AnalysisInputs {
  /** {@link fingerprintFile} of the media, or its {@link hashWholeFile} where the caller has it (folder scans). */
  content: string;
  /** The original path of a `path` source: its sidecar subtitles are read into the transcript. */
  sourcePath: string | null;
  language: Lang | null;
  /** Which models are installed, by capability (a new model changes the transcript, tags, vectors). */
  models: Record<string, { available: boolean; model?: string }>;
  title: string | null;
  metadata: Record<string, unknown> | null;
}

/**
 * The sidecar subtitle files beside a source path, each as its name and a hash of its bytes (null when it
 * is not read, e.g. a link out of the media roots): a copy of a video with subtitles beside it, or a changed
 * subtitle file, is a different analysis, and so is a copy beside an unreadable one, because the analysis
 * names that file in a warning and must not hand the name to another copy of the same bytes.
 * @example
 * await sidecarFingerprints(files, '/videos/b.mp4'); // [['b.srt', '9c1e…']]
 */
export async function sidecarFingerprints(files: FileAccess, sourcePath: string | null): Promise<[string, string | null][]> {
  if (!sourcePath) return [];
  const out: [string, string | null][] = [];
  for (const s of await listSidecarSubtitles(sourcePath)) {
    // A sidecar that leads out of the media roots is not read (the transcript skips it the same way). It is
    // hashed a piece at a time: a 50 MB sidecar hashed at once held the request thread for a tenth of a second.
    out.push([basename(s.path), await hashWholeFile(files, s.path).catch(() => null)]);
  }
  return out;
}

/**
 * The cache key of an analysis: the content fingerprint (readable prefix), the language and the pipeline
 * version, then a hash over every input (sidecars by name and content, models, title, metadata). The path
 * itself is not an input: an upload and a path of the same bytes with nothing beside it share one analysis.
 * @example
 * await analysisKey({ content, sourcePath: '/videos/b.mp4', language: null, models, title: null, metadata: null }, 2, files);
 * // '3fa2…-auto-v2-81c0…'
 */
export async function analysisKey(inputs: AnalysisInputs, version: number, files: FileAccess): Promise<string> {
  const models = modelSetEntries(inputs.models);
  const all = JSON.stringify([await sidecarFingerprints(files, inputs.sourcePath), inputs.language, models, inputs.title, inputs.metadata ?? null]);
  const digest = createHash('sha256').update(all).digest('hex').slice(0, 20);
  return `${inputs.content.slice(0, 24)}-${inputs.language ?? 'auto'}-v${version}-${digest}`;
}
