/**
 * What of a model is on disk under the models dir, in the `<modelsDir>/<repo>/<file>` layout
 * that transformers.js reads. Sizes are checked; hashes are not (that happens on download).
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { expectedSize, type Manifest, type ManifestFile, type ModelEntry } from './manifest.js';

export type InstallState = 'installed' | 'partial' | 'missing';

/** One file of a model as found on disk. */
export interface FileStatus {
  path: string;
  state: 'present' | 'partial' | 'missing' | 'wrong-size';
  /** Bytes on disk: the file, or its `.part` while a download is unfinished. */
  bytesOnDisk: number;
  expectedBytes: number | null;
  exact: boolean;
}

/** A model's install state with sizes. */
export interface ModelStatus {
  id: string;
  capability: ModelEntry['capability'];
  repo: string;
  state: InstallState;
  isDefault: boolean;
  bytesOnDisk: number;
  /** Sum of known (exact or approximate) sizes. */
  expectedBytes: number;
  /** True when every file's size is known exactly. */
  exact: boolean;
  files: FileStatus[];
}

/**
 * Folder of one model: `<modelsDir>/<owner>/<name>`.
 * @example
 * modelDir('/data/models', entry); // '/data/models/Xenova/whisper-base'
 */
export function modelDir(modelsDir: string, entry: Pick<ModelEntry, 'repo'>): string {
  return join(modelsDir, ...entry.repo.split('/'));
}

function sizeOf(path: string): number | null {
  try {
    const st = statSync(path);
    return st.isFile() ? st.size : null;
  } catch {
    return null;
  }
}

function fileStatus(dir: string, f: ManifestFile): FileStatus {
  const full = join(dir, f.path);
  const { bytes, exact } = expectedSize(f);
  const size = sizeOf(full);
  if (size !== null) {
    const wrong = exact && size !== bytes;
    return { path: f.path, state: wrong ? 'wrong-size' : 'present', bytesOnDisk: size, expectedBytes: bytes, exact };
  }
  const part = sizeOf(`${full}.part`);
  if (part !== null) return { path: f.path, state: 'partial', bytesOnDisk: part, expectedBytes: bytes, exact };
  return { path: f.path, state: 'missing', bytesOnDisk: 0, expectedBytes: bytes, exact };
}

/**
 * Install state of one model.
 * @example
 * modelStatus(entry, '/data/models').state; // 'missing'
 */
export function modelStatus(entry: ModelEntry, modelsDir: string): ModelStatus {
  const dir = modelDir(modelsDir, entry);
  const files = entry.files.map((f) => fileStatus(dir, f));
  const present = files.filter((f) => f.state === 'present').length;
  const touched = files.some((f) => f.state !== 'missing');
  const state: InstallState = present === files.length ? 'installed' : touched ? 'partial' : 'missing';
  return {
    id: entry.id,
    capability: entry.capability,
    repo: entry.repo,
    state,
    isDefault: entry.default === true,
    bytesOnDisk: files.reduce((a, f) => a + f.bytesOnDisk, 0),
    expectedBytes: files.reduce((a, f) => a + (f.expectedBytes ?? 0), 0),
    exact: files.every((f) => f.exact),
    files,
  };
}

/**
 * Install state of every model in the manifest, in manifest order.
 * @example
 * listModelStatus(manifest, modelsDir).filter((s) => s.state !== 'installed');
 */
export function listModelStatus(manifest: Manifest, modelsDir: string): ModelStatus[] {
  return manifest.models.map((m) => modelStatus(m, modelsDir));
}
