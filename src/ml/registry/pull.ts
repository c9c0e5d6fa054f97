/**
 * Pulls models from the hub (or a stand-in) into the models dir: only missing files are
 * fetched, interrupted downloads resume, and each file is verified before it is moved into place.
 */
import { join } from 'node:path';
import pRetry from 'p-retry';
import { downloadFile, DownloadError, HubUnreachableError, NoAnswerError } from './download.js';
import { expectedSize, loadManifest, resolveModelIds, type Manifest, type ModelEntry } from './manifest.js';
import { modelDir, modelStatus } from './status.js';

/**
 * URL of one file of a repo at a revision: `${hubUrl}/${repo}/resolve/${revision}/${path}`.
 * @example
 * hubFileUrl('https://huggingface.co', 'Xenova/whisper-base', 'abc', 'onnx/encoder_model.onnx');
 */
export function hubFileUrl(hubUrl: string, repo: string, revision: string, path: string): string {
  const encPath = path.split('/').map(encodeURIComponent).join('/');
  return `${hubUrl.replace(/\/+$/, '')}/${repo}/resolve/${encodeURIComponent(revision)}/${encPath}`;
}

/** Progress of a pull, for bars and logs. Byte totals may be estimates (see `exact`). */
export interface PullProgress {
  type: 'model-start' | 'file-start' | 'bytes' | 'file-done' | 'model-done' | 'retry';
  modelId: string;
  file?: string;
  /** Bytes of the current file so far / expected. */
  fileBytes?: number;
  fileTotal?: number | null;
  /** Bytes of the whole pull (all requested models) so far / expected. */
  bytesDone: number;
  bytesTotal: number;
  exact: boolean;
  /** For `retry`: why the previous attempt failed. */
  error?: string;
}

export interface PullOptions {
  hubUrl: string;
  modelsDir: string;
  manifest?: Manifest;
  onProgress?: (p: PullProgress) => void;
  signal?: AbortSignal;
  /** Extra attempts per file after a network error; each resumes from the `.part`. Default 3. */
  retries?: number;
  /** Pause before a retry, in ms (doubles each time). Default 500. */
  retryDelayMs?: number;
  fetch?: typeof fetch;
}

export interface PullResult {
  /** Models that were downloaded (fully or partly) by this call. */
  pulled: string[];
  /** Models that were already complete: nothing fetched. */
  alreadyInstalled: string[];
  bytesFetched: number;
}

function isRetryable(err: unknown, signal?: AbortSignal): boolean {
  if (signal?.aborted) return false;
  if (err instanceof DownloadError) return err.retryable;
  return true; // network errors (socket closed, reset) surface as TypeError from fetch
}

/**
 * Downloads the given models (`default` = every capability's default) into `modelsDir`.
 * @example
 * await pull(['default'], { hubUrl: config.hubUrl, modelsDir: '/data/models',
 *   onProgress: (p) => console.log(p.bytesDone, p.bytesTotal) });
 */
export async function pull(ids: string[], opts: PullOptions): Promise<PullResult> {
  const manifest = opts.manifest ?? loadManifest();
  const entries = resolveModelIds(manifest, ids);
  const retries = opts.retries ?? 3;
  const result: PullResult = { pulled: [], alreadyInstalled: [], bytesFetched: 0 };

  const statuses = entries.map((e) => modelStatus(e, opts.modelsDir));
  const bytesTotal = statuses.reduce((a, s) => a + s.expectedBytes, 0);
  const exact = statuses.every((s) => s.exact);
  let bytesBefore = 0; // bytes of files finished earlier in this pull (or already on disk)
  let reachedHub = false;

  for (const [i, entry] of entries.entries()) {
    const status = statuses[i];
    if (status.state === 'installed') {
      result.alreadyInstalled.push(entry.id);
      bytesBefore += status.expectedBytes;
      continue;
    }
    const emit = (p: Omit<PullProgress, 'modelId' | 'bytesTotal' | 'exact'>) =>
      opts.onProgress?.({ modelId: entry.id, bytesTotal, exact, ...p });
    emit({ type: 'model-start', bytesDone: bytesBefore });
    for (const [j, file] of entry.files.entries()) {
      const fstat = status.files[j];
      const known = expectedSize(file).bytes;
      if (fstat.state === 'present') {
        bytesBefore += fstat.bytesOnDisk;
        continue;
      }
      emit({ type: 'file-start', file: file.path, fileBytes: fstat.bytesOnDisk, fileTotal: known, bytesDone: bytesBefore + fstat.bytesOnDisk });
      const got = await fetchWithRetries(entry, file.path, opts, retries, reachedHub, (fileBytes, fileTotal, type, error) =>
        emit({ type, file: file.path, fileBytes, fileTotal, bytesDone: bytesBefore + fileBytes, error }),
      );
      reachedHub = true;
      result.bytesFetched += got.bytesFetched;
      bytesBefore += got.size;
      emit({ type: 'file-done', file: file.path, fileBytes: got.size, fileTotal: got.size, bytesDone: bytesBefore });
    }
    result.pulled.push(entry.id);
    emit({ type: 'model-done', bytesDone: bytesBefore });
  }
  return result;
}

async function fetchWithRetries(
  entry: ModelEntry,
  path: string,
  opts: PullOptions,
  retries: number,
  /** Whether the hub answered earlier in this pull (then a lost connection is retried, not taken as offline). */
  reachedHub: boolean,
  report: (bytes: number, total: number | null, type: 'bytes' | 'retry', error?: string) => void,
): Promise<{ bytesFetched: number; size: number }> {
  const file = entry.files.find((f) => f.path === path);
  const url = hubFileUrl(opts.hubUrl, entry.repo, entry.revision, path);
  const dest = join(modelDir(opts.modelsDir, entry), path);
  let fetched = 0;
  let lastBytes = 0;
  const fetchOnce = async () => {
    await downloadFile(url, dest, {
      size: file?.size,
      sha256: file?.sha256,
      signal: opts.signal,
      fetch: opts.fetch,
      onBytes: (done, total, received) => {
        lastBytes = done;
        fetched += received;
        report(done, total, 'bytes');
      },
    });
    return { bytesFetched: fetched, size: lastBytes };
  };
  return pRetry(fetchOnce, {
    retries, minTimeout: opts.retryDelayMs ?? 500, factor: 2, signal: opts.signal,
    // Decides here, before any pause, so a failure that is not retried ends the pull with its own error.
    onFailedAttempt: ({ error, retriesLeft }) => {
      // No answer at all before anything arrived in this pull: the machine is offline, and retrying will not help.
      const offline = error instanceof NoAnswerError ? new HubUnreachableError(url, error.reason, opts.hubUrl, { id: entry.id, repo: entry.repo, revision: entry.revision }) : null;
      if (offline && fetched === 0 && !reachedHub) throw offline;
      if (retriesLeft === 0 || !isRetryable(error, opts.signal)) throw offline ?? error;
      report(lastBytes, file?.size ?? null, 'retry', error.message);
    },
  });
}
