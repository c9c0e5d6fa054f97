/**
 * Brings in a model downloaded elsewhere: a folder in the hub's repository layout (what the hub's own
 * download tool writes, or an unpacked `vidx models export` archive). Every file the manifest names is
 * copied into a staging folder inside the models dir while its SHA-256 is taken, then checked (size, hash
 * where known); only a complete, checked model replaces the model's folder, so nothing is half-installed.
 */
import { randomUUID, createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, readFileSync, statSync } from 'node:fs';
import { lstat, mkdir, open, realpath, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { isInside } from '../../media/file-access.js';
import { english, type Message, msg } from '../../messages/index.js';
import { getModel, UnknownModelError, type Manifest, type ManifestFile, type ModelEntry } from './manifest.js';
import { modelDir } from './status.js';

/** The file an exported archive carries to say which model it holds. */
export const ARCHIVE_LABEL = 'vidx-model.json';

/**
 * A model that cannot be imported, with the reason as a message (naming the file where one is at fault).
 * @example
 * try { await importModelFolder(dir, opts); } catch (e) { if (e instanceof ModelImportError) console.error(e.message); }
 */
export class ModelImportError extends Error {
  constructor(readonly text: Message) {
    super(english(text));
    this.name = 'ModelImportError';
  }
}

/** Where and what to import. */
export interface ImportOptions {
  manifest: Manifest;
  modelsDir: string;
  /** The model the files are; found from the archive's label or the files themselves when not given. */
  modelId?: string;
}

/** What an import installed. */
export interface ImportResult {
  modelId: string;
  files: number;
  bytes: number;
}

/**
 * Checks a folder in the hub's layout against the manifest and installs it.
 * @example
 * await importModelFolder('/media/usb/whisper-base', { manifest, modelsDir: '/data/models' });
 * // { modelId: 'whisper-base', files: 7, bytes: 145_000_000 }
 */
export async function importModelFolder(folder: string, opts: ImportOptions): Promise<ImportResult> {
  const root = await realpath(folder);
  const entry = identifyModel(root, opts.manifest, opts.modelId);
  const stage = join(opts.modelsDir, `.import-${randomUUID()}`);
  let bytes = 0;
  try {
    for (const file of entry.files) bytes += await copyChecked(root, file, join(stage, file.path), entry.id);
    const target = modelDir(opts.modelsDir, entry);
    await rm(target, { recursive: true, force: true });
    await mkdir(dirname(target), { recursive: true });
    await rename(stage, target);
  } finally {
    await rm(stage, { recursive: true, force: true });
  }
  return { modelId: entry.id, files: entry.files.length, bytes };
}

/** The real path of one of the model's files, refusing one that leads out of the folder (through a link). */
async function sourceOf(root: string, file: ManifestFile, id: string): Promise<string> {
  const path = join(root, file.path);
  try {
    await lstat(path);
  } catch {
    throw new ModelImportError(msg('import_missing_file', { id, file: file.path }));
  }
  let real: string;
  try {
    real = await realpath(path);
  } catch {
    // A link to nothing.
    throw new ModelImportError(msg('import_unsafe_path', { file: file.path }));
  }
  if (real === root || !isInside(root, real)) throw new ModelImportError(msg('import_unsafe_path', { file: file.path }));
  if (!statSync(real).isFile()) throw new ModelImportError(msg('import_missing_file', { id, file: file.path }));
  return real;
}

/** Copies one file into the staging folder while hashing it, then checks size and hash; its size. */
async function copyChecked(root: string, file: ManifestFile, dest: string, id: string): Promise<number> {
  const src = await sourceOf(root, file, id);
  const size = statSync(src).size;
  if (file.size != null && size !== file.size) {
    throw new ModelImportError(msg('import_wrong_size', { id, file: file.path, size, expected: file.size }));
  }
  if (file.size == null && file.approxSize != null && !nearSize(size, file.approxSize)) {
    throw new ModelImportError(msg('import_size_off', { id, file: file.path, size, about: file.approxSize }));
  }
  await mkdir(dirname(dest), { recursive: true });
  const hash = createHash('sha256');
  const tap = new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
  if (file.path.endsWith('.gguf') && !(await startsWith(src, GGUF_MAGIC))) throw new ModelImportError(msg('import_not_gguf', { id, file: file.path }));
  await pipeline(createReadStream(src), tap, createWriteStream(dest));
  if (file.sha256 && hash.digest('hex') !== file.sha256) throw new ModelImportError(msg('import_wrong_hash', { id, file: file.path }));
  return size;
}

/** The first bytes of every GGUF file. */
const GGUF_MAGIC = Buffer.from('GGUF', 'latin1');

/** Whether a file begins with `magic` (a model of another format is refused before it is copied). */
async function startsWith(path: string, magic: Buffer): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(magic.length);
    const { bytesRead } = await handle.read(head, 0, magic.length, 0);
    return bytesRead === magic.length && head.equals(magic);
  } finally {
    await handle.close();
  }
}

/**
 * Which manifest model a folder holds: the id asked for, else the archive's label, else the one model all
 * of whose files are there (by size where several fit), else the one with most of its files there (the
 * check then names what is missing).
 * @example
 * identifyModel('/tmp/whisper-base', manifest).id; // 'whisper-base'
 */
export function identifyModel(root: string, manifest: Manifest, modelId?: string): ModelEntry {
  const id = modelId ?? labelledId(root);
  if (id !== undefined) {
    try {
      return getModel(manifest, id);
    } catch (e) {
      if (e instanceof UnknownModelError) throw new ModelImportError(msg('import_unknown_model', { id, known: manifest.models.map((m) => m.id).join(', ') }));
      throw e;
    }
  }
  const present = (m: ModelEntry) => m.files.filter((f) => existsSync(join(root, f.path))).length;
  const complete = manifest.models.filter((m) => present(m) === m.files.length);
  const fitting = complete.filter((m) => m.files.every((f) => sizeFits(f, sizeOr(join(root, f.path)))));
  if (fitting.length === 1) return fitting[0];
  if (fitting.length > 1 || complete.length > 1) throw new ModelImportError(msg('import_ambiguous', { ids: (fitting.length > 1 ? fitting : complete).map((m) => m.id).join(', ') }));
  if (complete.length === 1) return complete[0];
  const best = manifest.models.map((m) => ({ m, n: present(m) })).sort((a, b) => b.n - a.n)[0];
  if (!best || best.n === 0) throw new ModelImportError(msg('import_not_a_model'));
  return best.m;
}

/**
 * Whether a size is within a tenth of the hub listing's rounded figure (what the manifest knows of a file
 * without an exact size): a cut-off download or another model's file is far off.
 */
function nearSize(size: number, about: number): boolean {
  return Math.abs(size - about) <= about * 0.1;
}

/** Whether a file on disk has the size the manifest gives, exactly or (rounded figures) near enough. */
function sizeFits(f: ManifestFile, size: number | null): boolean {
  if (size === null) return false;
  if (f.size != null) return size === f.size;
  return f.approxSize == null || nearSize(size, f.approxSize);
}

function sizeOr(path: string): number | null {
  try {
    return statSync(path).size;
  } catch {
    return null;
  }
}

/** The model id an exported archive's label names, if the folder has one. */
function labelledId(root: string): string | undefined {
  const label = join(root, ARCHIVE_LABEL);
  if (!existsSync(label)) return undefined;
  try {
    const id = (JSON.parse(readFileSync(label, 'utf8')) as { id?: unknown }).id;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}
